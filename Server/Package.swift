// swift-tools-version: 6.2
// city-server: the autocomplete service and its web page over one mapped index. A package of
// its own so that the libraries never depend on a server framework. Build and start it on
// Data/ with Scripts/serve.sh from the repository root.
import PackageDescription

let package = Package(
    name: "CityServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "city-server", targets: ["CityServer"]),
    ],
    dependencies: [
        .package(name: "CityIndex", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The service: routes, parameters, JSON, the served index and its replacement, metrics, the page.
        .target(name: "CityService", dependencies: [
            .product(name: "CityIndex", package: "CityIndex"),
            .product(name: "CityJSON", package: "CityIndex"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [.copy("Page")]),
        .executableTarget(name: "CityServer", dependencies: [
            "CityService",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "CityServiceTests", dependencies: [
            "CityService",
            .product(name: "CityIndexBuilder", package: "CityIndex"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
    ]
)
