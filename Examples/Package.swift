// swift-tools-version: 6.0
// A consumer of CityIndex, as an app depends on it. Each Swift snippet of README.md is the
// main.swift of one executable here, verbatim (ReadmeSnippetTests checks that), and CI builds
// this package (.ci/run), so every snippet is known to compile against the public API;
// BundledIndexExample uses the build-tool plugin.
import PackageDescription

let package = Package(
    name: "CityIndexExamples",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "CityIndex", path: "..")],
    targets: [
        .executableTarget(name: "LibraryExample", dependencies: [.product(name: "CityIndex", package: "CityIndex")]),
        .executableTarget(name: "SearchBoxExample", dependencies: [.product(name: "CitySearchKit", package: "CityIndex")]),
        // An app's way to ship an index: cities.json in the target, compiled by the plugin at
        // build time, opened from Bundle.module. CI runs it (.ci/run).
        .executableTarget(name: "BundledIndexExample",
                          dependencies: [.product(name: "CityIndex", package: "CityIndex"),
                                         .product(name: "CitySearchKit", package: "CityIndex")],
                          plugins: [.plugin(name: "CityIndexPlugin", package: "CityIndex")]),
    ],
    swiftLanguageModes: [.v6]
)
