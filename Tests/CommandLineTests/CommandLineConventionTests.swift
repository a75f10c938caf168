// CommandLineConventionTests.swift: what a command-line user expects of both tools.
import CityIndex
import CityIndexArtifacts
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Command-line conventions")
struct CommandLineConventionTests {
    let buildIndex = Tool(name: "build-index")
    let citySearch = Tool(name: "city-search")

    /// The small index written to `directory`, and the path.
    private func smallIndex(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("small.cidx").path
        try Data(Fixtures.smallIndexBytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("--version prints the release of CHANGELOG.md and the format version, on both tools")
    func version() throws {
        let changelog = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let latest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.dropFirst(3).first?.isNumber == true })
        let released = latest.dropFirst(3).split(separator: " ")[0]
        #expect(CityIndexRelease.version == String(released))
        for tool in [buildIndex, citySearch] {
            let outcome = try tool.run(["--version"])
            #expect(outcome.status == 0)
            #expect(outcome.standardOutput == "\(released) (index format 7-8)\n", "\(tool.name)")
        }
    }

    @Test("city-search --id, --inspect, --country, --format ndjson and csv")
    func idInspectAndFormats() throws {
        let directory = try temporaryDirectory("conventions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = try smallIndex(in: directory)
        let text = try citySearch.run(["--index", index, "--id", "707860"])
        #expect(text.status == 0 && text.standardOutput == "Hurzuf, UA  (44.549999, 34.283333)  id 707860\n", "\(text.standardOutput)")
        let json = try citySearch.run(["--index", index, "--id", "707860", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "Hurzuf" && object?["id"] as? Int == 707860)
        let missing = try citySearch.run(["--index", index, "--id", "999999999"])
        #expect(missing.status == 1 && missing.standardError.contains("no city has id 999999999"))

        let inspected = try citySearch.run(["--index", index, "--inspect"])
        #expect(inspected.status == 0)
        for expected in ["format version: 8", "cities:         \(Fixtures.smallIndex.cityCount)", "checksum:       ok", "NODE", "WNOD", "CITY"] {
            #expect(inspected.standardOutput.contains(expected), "\(expected) in\n\(inspected.standardOutput)")
        }

        let all = try citySearch.run(["--index", index, "--json", "--limit", "100", ""])
        let count = try #require((try JSONSerialization.jsonObject(with: Data(all.standardOutput.utf8)) as? [String: Any])?["count"] as? Int)
        let ndjson = try citySearch.run(["--index", index, "--format", "ndjson", "--limit", "100", ""])
        let lines = ndjson.standardOutput.split(separator: "\n")
        #expect(lines.count == count)
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
        let french = try citySearch.run(["--index", index, "--format", "ndjson", "--country", "fr", "--limit", "100", ""])
        let frenchLines = french.standardOutput.split(separator: "\n")
        #expect(!frenchLines.isEmpty && frenchLines.allSatisfy { $0.contains("\"country\": \"FR\"") }, "\(french.standardOutput)")
        #expect(try citySearch.run(["--index", index, "--country", "France", "x"]).status == 64)
        let csv = try citySearch.run(["--index", index, "--format", "csv", "--limit", "100", ""])
        let rows = csv.standardOutput.split(separator: "\n")
        #expect(rows.first == "id,name,country,lat,lon,matched_name,edits,region,region_code")
        #expect(rows.count == count + 1)
    }

    @Test("city-search opens a compressed artifact; build-index given an index says so; --json reports the bytes written")
    func artifactsBothWays() throws {
        let directory = try temporaryDirectory("conventions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.directory.appendingPathComponent("small.json").path
        let plain = directory.appendingPathComponent("plain.cidx").path
        #expect(try buildIndex.run([input, "-o", plain, "--quiet"]).status == 0)
        for format in ["xz", "gzip"] {
            let artifact = directory.appendingPathComponent("cities.cidx.\(format)").path
            let built = try buildIndex.run([input, "--compress", format, "-o", artifact, "--json"])
            #expect(built.status == 0)
            let summary = try JSONSerialization.jsonObject(with: Data(built.standardOutput.utf8)) as? [String: Any]
            let written = summary?["written"] as? [String: Any]
            let size = try FileManager.default.attributesOfItem(atPath: artifact)[.size] as? Int
            #expect(written?["bytes"] as? Int == size && written?["format"] as? String == format)
            // The compression is a phase of the run, and counts in its elapsed time.
            let phases = summary?["phases"] as? [[String: Any]] ?? []
            let compressing = phases.last { $0["name"] as? String == "compressing" }?["seconds"] as? Double
            let elapsed = summary?["elapsedSeconds"] as? Double ?? 0
            #expect(compressing != nil && elapsed >= compressing!, "\(phases)")
            #expect(abs(elapsed - phases.compactMap { $0["seconds"] as? Double }.reduce(0, +)) < 0.05, "\(phases), \(elapsed)")
            // Built plain into a temporary file, then compressed from it: the artifact holds
            // exactly the plain index, and the temporary file is gone.
            #expect(try ArtifactCodec.decompress(Array(Data(contentsOf: URL(fileURLWithPath: artifact))), maximumByteCount: 1 << 30)
                    == Array(Data(contentsOf: URL(fileURLWithPath: plain))))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".plain-") })
            let fromArtifact = try citySearch.run(["--index", artifact, "--json", "par"])
            let fromPlain = try citySearch.run(["--index", plain, "--json", "par"])
            #expect(fromArtifact.status == 0 && fromArtifact.standardOutput == fromPlain.standardOutput, "\(fromArtifact.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).allSatisfy { !$0.hasPrefix("city-search-") })
        let wrongInput = try buildIndex.run([plain, "-o", directory.appendingPathComponent("again.cidx").path])
        #expect(wrongInput.status == 65)
        #expect(wrongInput.standardError.contains("is a CityIndex file"), "\(wrongInput.standardError)")
        let compressedIndex = try buildIndex.run([directory.appendingPathComponent("cities.cidx.xz").path, "-o",
                                                  directory.appendingPathComponent("again.cidx").path])
        // Past --max-input-bytes, the message gives the input's real size, which then works.
        let inputSize = try #require(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int)
        let big = directory.appendingPathComponent("big.cidx").path
        let tooLarge = try buildIndex.run([input, "--max-input-bytes", "1000", "-o", big])
        #expect(tooLarge.status == 65 && tooLarge.standardError.contains("decompresses to \(inputSize) bytes, more than 1000")
                && tooLarge.standardError.hasSuffix("pass --max-input-bytes \(inputSize)\n"), "\(tooLarge.standardError)")
        #expect(try buildIndex.run([input, "--max-input-bytes", "\(inputSize)", "-o", big, "--quiet"]).status == 0)
        let farTooLarge = try buildIndex.run([input, "--max-input-bytes", "100", "-o", big])
        #expect(farTooLarge.status == 65 && farTooLarge.standardError.contains("decompresses to more than 400 bytes (4 times the limit"),
                "\(farTooLarge.standardError)")
        #expect(compressedIndex.status == 65)
        #expect(compressedIndex.standardError.contains("it is an index, not a city list"), "\(compressedIndex.standardError)")
    }

    @Test("--interactive without a terminal exits 64; shell completions complete index files")
    func interactiveNeedsTerminalAndCompletions() throws {
        let outcome = try citySearch.run(["--interactive"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("needs a terminal"))
        let completion = try citySearch.run(["--generate-completion-script", "bash"])
        #expect(completion.status == 0 && completion.standardOutput.contains("cidx"))
        let buildCompletion = try buildIndex.run(["--generate-completion-script", "zsh"])
        #expect(buildCompletion.status == 0 && buildCompletion.standardOutput.contains("json"))
    }

    @Test("bold highlights on a terminal, none with NO_COLOR or TERM=dumb", .timeLimit(.minutes(2)),
          .enabled(if: TmuxSession.executablePath != nil, "tmux is not installed"))
    func noColor() throws {
        let directory = try temporaryDirectory("conventions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = try smallIndex(in: directory)
        let executable = Tool.productsDirectory.appendingPathComponent("city-search").path
        for (environment, expectsBold) in [("-u NO_COLOR TERM=xterm ", true), ("NO_COLOR=1 TERM=xterm ", false), ("-u NO_COLOR TERM=dumb ", false)] {
            let session = TmuxSession()
            defer { session.stop() }
            try session.start("env \(environment)\(executable) --index \(index) zu; echo DONE; sleep 30")
            _ = try session.waitFor("DONE")
            let screen = try session.tmux(["capture-pane", "-p", "-e", "-t", "main"], readingOutput: true)
            #expect(screen.contains("\u{1B}[1m") == expectsBold, "\(environment): \(screen.debugDescription)")
        }
    }
}
