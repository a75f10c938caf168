// ReadmeSnippetTests.swift: every Swift snippet of README.md is code that compiles.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

@Suite("README snippets")
struct ReadmeSnippetTests {
    @Test("each Swift snippet of README.md is, verbatim, the main.swift of an executable in Examples/ (which CI builds)")
    func snippetsAreExamples() throws {
        let root = SharedData.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let sources = root.appendingPathComponent("Examples/Sources")
        let mains = try FileManager.default.contentsOfDirectory(atPath: sources.path).compactMap { target in
            try? String(contentsOf: sources.appendingPathComponent("\(target)/main.swift"), encoding: .utf8)
        }
        let programs = blocks.filter { !$0.hasPrefix("// Package.swift") }   // manifest excerpts are not programs
        #expect(programs.count >= 3)
        for block in programs {
            #expect(mains.contains(block), "README snippet not in Examples/Sources/*/main.swift:\n\(block)")
        }
        #expect(mains.count == programs.count, "an example whose snippet left the README")
    }

    @Test("README.md stays a five-minute read: at most 350 lines")
    func readmeLength() throws {
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        #expect(lines <= 350, "README.md has \(lines) lines")
    }

    @Test("the README's package snippet names this release, and CHANGELOG.md's latest entry is it")
    func releaseNamed() throws {
        let root = SharedData.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(readme.contains("from: \"\(CityIndexRelease.version)\")"))
        let latest = changelog.components(separatedBy: "\n## ").dropFirst().first ?? ""
        #expect(latest.hasPrefix(CityIndexRelease.version + " "), "CHANGELOG.md's latest entry: \(latest.prefix(40))")
    }
}
