// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "CityIndex",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "CityIndex", targets: ["CityIndex"]),
        .library(name: "CityIndexBuilder", targets: ["CityIndexBuilder"]),
        .library(name: "CitySearchKit", targets: ["CitySearchKit"]),
        .executable(name: "build-index", targets: ["BuildIndex"]),
        .executable(name: "city-search", targets: ["CitySearch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // System libraries used by the builder to read .gz and .xz inputs.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CLzma", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"]), .brew(["xz"])]),

        // The runtime reader: standard library and the platform C library only, no Foundation.
        .target(name: "CityIndex"),

        // Parsing, validation, folding-table generation and index writing (Foundation allowed).
        .target(name: "CityIndexBuilder", dependencies: ["CityIndex", "CZlib", "CLzma"]),

        // The search-box layer (debounce, favorites, coordinates, the index artifact cache).
        .target(name: "CitySearchKit", dependencies: ["CityIndex", "CityIndexBuilder"]),

        .executableTarget(name: "BuildIndex", dependencies: [
            "CityIndexBuilder",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "CitySearch", dependencies: [
            "CityIndex", "CitySearchKit",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // The independent reference implementation (naive filter) and test fixtures.
        .target(name: "CityIndexTestSupport", path: "Sources/CityIndexTestSupport"),
        .testTarget(name: "CityIndexTests", dependencies: [
            "CityIndex", "CityIndexBuilder", "CityIndexTestSupport", "CitySearchKit",
        ], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
