// CityIndexPlugin.swift: compiles a target's city lists into index resources at build time.
import Foundation
import PackagePlugin

/// A build-tool plugin: every file of the target named `cities*.json`, `cities*.json.gz` or
/// `cities*.json.xz` is compiled into `NAME.cidx` (NAME: the file name up to `.json`) when it
/// changes, and bundled with the target as a resource:
///
/// ```swift
/// let url = Bundle.module.url(forResource: "cities", withExtension: "cidx")!
/// let index = try CityIndex(contentsOf: url)
/// ```
///
/// A file of the target named `places.json` (or `.json.gz`, `.json.xz`) names the countries
/// and regions of every list (`build-index --places`): regions and country names are then in
/// the index, as `build-index` would put them.
///
/// The compiler is `CityIndexPluginTool` (a small executable target: plugins name tools by
/// target, and `build-index`'s product and target names differ). Errors in the list show in
/// Xcode and in `swift build` at their line and column.
@main
struct CityIndexPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "CityIndexPluginTool")
        let places = target.sourceFiles.first { ["places.json", "places.json.gz", "places.json.xz"].contains($0.url.lastPathComponent) }?.url
        return target.sourceFiles.compactMap { file in
            let name = file.url.lastPathComponent
            guard name.hasPrefix("cities"), let range = name.range(of: ".json"),
                  [".json", ".json.gz", ".json.xz"].contains(String(name[range.lowerBound...])) else { return nil }
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(String(name[..<range.lowerBound]) + ".cidx")
            return .buildCommand(displayName: "Compiling city index \(name)", executable: tool.url,
                                 arguments: [file.url.path, output.path] + (places.map { [$0.path] } ?? []),
                                 inputFiles: [file.url] + (places.map { [$0] } ?? []), outputFiles: [output])
        }
    }
}
