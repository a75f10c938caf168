// swift-tools-version: 6.1
// Benchmarks of every search strategy side by side. A separate package so that building or
// testing CityIndex never pays for package-benchmark. Run everything with
// Scripts/run-benchmarks.sh from the repository root.
import PackageDescription

let package = Package(
    name: "CityIndexBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "CityIndex", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "SearchStrategies", dependencies: [
            "CSQLite",
            .product(name: "CityIndex", package: "CityIndex"),
            .product(name: "CityIndexArtifacts", package: "CityIndex"),
            .product(name: "CityIndexBuilder", package: "CityIndex"),
        ]),
        .executableTarget(name: "CompareStrategies", dependencies: ["SearchStrategies"]),
        .executableTarget(name: "ScaleQueries", dependencies: ["SearchStrategies"]),
        .executableTarget(name: "HeadToHead", dependencies: ["SearchStrategies"]),
        .executableTarget(name: "PlaceQueries", dependencies: [.product(name: "CityIndex", package: "CityIndex")]),
        .executableTarget(name: "StageProfile", dependencies: [.product(name: "CityIndex", package: "CityIndex")]),
        .executableTarget(
            name: "PrefixSearch",
            dependencies: ["SearchStrategies", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/PrefixSearch",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
