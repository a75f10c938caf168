// swift-tools-version: 6.0
// The libFuzzer target for opening and searching index files. A separate package so that the
// main build never needs the fuzzer runtime. Run it with Scripts/fuzz.sh.
import PackageDescription

let package = Package(
    name: "CityIndexFuzz",
    dependencies: [.package(name: "CityIndex", path: "..")],
    targets: [
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "FuzzIndex", dependencies: [
            "CFuzzDriver",
            .product(name: "CityIndex", package: "CityIndex"),
            .product(name: "CityIndexBuilder", package: "CityIndex"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
