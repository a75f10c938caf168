// swift-tools-version: 6.0
import PackageDescription

/// Where gzip and xz come from zlib and liblzma rather than Apple's Compression framework.
let nonApplePlatforms: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

let package = Package(
    name: "CityIndex",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "CityIndex", targets: ["CityIndex"]),
        .library(name: "CityIndexArtifacts", targets: ["CityIndexArtifacts"]),
        .library(name: "CityIndexBuilder", targets: ["CityIndexBuilder"]),
        .library(name: "CitySearchKit", targets: ["CitySearchKit"]),
        .library(name: "CityJSON", targets: ["CityJSON"]),
        .executable(name: "build-index", targets: ["BuildIndex"]),
        .executable(name: "city-search", targets: ["CitySearch"]),
        // Compiles `cities*.json(.gz|.xz)` files of a target into bundled `.cidx` resources.
        .plugin(name: "CityIndexPlugin", targets: ["CityIndexPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (DocC); build-time only, nothing is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries for gzip and xz where Apple's Compression framework is absent.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CLzma", pkgConfig: "liblzma", providers: [.apt(["liblzma-dev"])]),
        // libcurl for IndexStore's downloads where URLSession is FoundationNetworking's.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Keeps a mapped index file that is truncated underneath from raising SIGBUS (C: a
        // signal handler must not run Swift code that could allocate or take locks).
        .target(name: "CMappedFileGuard"),
        // Cache prefetch hints (one static inline C function, which Swift cannot spell).
        .target(name: "CCacheHints"),

        // The runtime reader: standard library, the platform C library and the two above; no Foundation.
        .target(name: "CityIndex", dependencies: ["CMappedFileGuard", "CCacheHints"]),

        // Index artifacts: reading inputs, gzip/xz (Apple's Compression framework on Apple
        // platforms, zlib and liblzma elsewhere), atomic file replacement.
        .target(name: "CityIndexArtifacts", dependencies: [
            "CityIndex",
            .target(name: "CZlib", condition: .when(platforms: nonApplePlatforms)),
            .target(name: "CLzma", condition: .when(platforms: nonApplePlatforms)),
        ]),

        // Parsing, validation, folding-table generation and index writing (Foundation allowed).
        .target(name: "CityIndexBuilder", dependencies: ["CityIndex", "CityIndexArtifacts"]),

        // The search-box layer (debounce, favorites, coordinates, the index artifact cache).
        .target(name: "CitySearchKit", dependencies: [
            "CityIndex", "CityIndexArtifacts",
            .target(name: "CCurl", condition: .when(platforms: nonApplePlatforms)),
        ]),

        // Cities and matches as JSON (SEARCH.md §5): the one writer of city-search's and
        // city-server's result objects.
        .target(name: "CityJSON", dependencies: ["CityIndex"]),

        // Counts the process's heap allocations by standing in for malloc (glibc; linked only
        // into AllocationProbe), and the probe that counts those of the default search.
        .target(name: "CAllocationCounter"),
        .executableTarget(name: "AllocationProbe", dependencies: ["CityIndex", "CAllocationCounter"]),

        // A process that lives with the SIGBUS guard, for the guard's tests (not a product).
        .executableTarget(name: "GuardProbe", dependencies: ["CityIndex"]),

        .executableTarget(name: "BuildIndex", dependencies: [
            "CityIndex", "CityIndexBuilder", "CityIndexArtifacts",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "CitySearch", dependencies: [
            "CityIndex", "CityIndexArtifacts", "CitySearchKit", "CityJSON",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // The build-tool plugin and the compiler it runs (a target of its own: plugins name
        // their tools by target).
        .executableTarget(name: "CityIndexPluginTool", dependencies: ["CityIndexBuilder"]),
        .plugin(name: "CityIndexPlugin", capability: .buildTool(), dependencies: ["CityIndexPluginTool"]),

        // The independent reference implementations, the shared fixtures, a manual clock.
        .target(name: "CityIndexTestSupport", dependencies: ["CityIndex", "CityIndexArtifacts", "CityIndexBuilder"]),

        // One test target per module; fixture files live in Tests/Fixtures.
        .testTarget(name: "CityIndexTests", dependencies: ["CityIndex", "CityIndexBuilder", "CityIndexTestSupport"]),
        .testTarget(name: "CityIndexArtifactsTests", dependencies: ["CityIndex", "CityIndexArtifacts", "CityIndexTestSupport"]),
        .testTarget(name: "CityIndexBuilderTests", dependencies: [
            "CityIndex", "CityIndexArtifacts", "CityIndexBuilder", "CityIndexTestSupport",
        ]),
        .testTarget(name: "CitySearchKitTests", dependencies: [
            "CityIndex", "CityIndexArtifacts", "CitySearchKit", "CityIndexTestSupport",
        ]),
        .testTarget(name: "CommandLineTests", dependencies: ["CityIndex", "CityIndexArtifacts", "CityIndexTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
