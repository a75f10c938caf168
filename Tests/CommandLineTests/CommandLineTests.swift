// CommandLineTests.swift: build-index and city-search as a user runs them.
import CityIndex
import CityIndexTestSupport
import Foundation
import Testing

/// Runs one of the package's executables (built beside the test bundle).
struct Tool {
    let name: String

    static let productsDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs the tool in `directory` (default: the package root) with `environment` added to
    /// this process's environment; through `launcher` (a program and its arguments, which then
    /// runs the tool: `setpriv …` to run it as another user) when given.
    func run(_ arguments: [String], input: Data? = nil, in directory: URL = SharedData.packageRoot,
             environment: [String: String] = [:], launcher: [String] = []) throws -> Outcome {
        let executable = Self.productsDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw TestSetupError("\(executable.path) is missing: run `swift build` for the same configuration first")
        }
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [executable.path] + arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), error = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                       standardError: String(decoding: errorData, as: UTF8.self))
    }
}

@Suite("Command-line tools")
struct CommandLineTests {
    let buildIndex = Tool(name: "build-index")
    let citySearch = Tool(name: "city-search")
    let fixtures = Fixtures.directory

    @Test("build-index writes an index and a summary; city-search prints the SEARCH.md JSON")
    func buildAndSearch() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("small.cidx").path
        let built = try buildIndex.run([fixtures.appendingPathComponent("small.json.xz").path, "-o", index, "--json"])
        #expect(built.status == 0, "\(built.standardError)")
        let summary = try JSONSerialization.jsonObject(with: Data(built.standardOutput.utf8)) as? [String: Any]
        #expect(summary?["cities"] as? Int == 13)
        #expect(summary?["inputFormat"] as? String == "xz")

        let searched = try citySearch.run(["--index", index, "--json", "--limit", "1", "--offset", "1", "paris"])
        #expect(searched.status == 0, "\(searched.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(searched.standardOutput.utf8)) as? [String: Any])
        #expect(object["query"] as? String == "paris")
        #expect(object["count"] as? Int == 2)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["id"] as? Int == 4717560)   // Paris, US after Paris, FR
        #expect(results.first?["country"] as? String == "US")
        #expect(results.first?["lat"] as? Double == 33.660938)
        #expect(results.first?["highlights"] as? [[Int]] == [[0, 5]])

        let text = try citySearch.run(["--index", index, "mün"])
        #expect(text.standardOutput.hasPrefix("2 cities match \"mün\"\n  Munchen, DE"))

        // --match words finds alternate names and says which matched; --order population orders (--rank is its earlier name).
        let words = try citySearch.run(["--index", index, "--json", "--match", "words", "--typos", "0", "munich"])
        let wordObject = try #require(try JSONSerialization.jsonObject(with: Data(words.standardOutput.utf8)) as? [String: Any])
        let wordResults = try #require(wordObject["results"] as? [[String: Any]])
        #expect(wordObject["count"] as? Int == 1)
        #expect(wordResults.first?["name"] as? String == "München")
        #expect(wordResults.first?["matchedName"] as? String == "Munich")
        #expect(wordResults.first?["highlights"] as? [[Int]] == [[0, 6]])
        let york = try citySearch.run(["--index", index, "--match", "words", "--order", "population", "york"])
        #expect(york.standardOutput == "1 city matches \"york\"\n  New York, US  (40.714272, -74.005966)  id 5128581\n")
        let ranked = try citySearch.run(["--index", index, "--json", "--rank", "population", "--limit", "1", "paris"])
        let rankedObject = try #require(try JSONSerialization.jsonObject(with: Data(ranked.standardOutput.utf8)) as? [String: Any])
        #expect(rankedObject["count"] as? Int == 2)
        #expect((rankedObject["results"] as? [[String: Any]])?.first?["id"] as? Int == 2988507)
        // --rank, the earlier name of --order, still orders: every city by population, which is
        // not their alphabetical order.
        let orderArguments = ["--index", index, "--json", "--limit", "5", ""]
        let byRank = try citySearch.run(["--rank", "population"] + orderArguments)
        #expect(byRank.status == 0)
        #expect(byRank.standardOutput == (try citySearch.run(["--order", "population"] + orderArguments)).standardOutput)
        #expect(byRank.standardOutput != (try citySearch.run(["--order", "alphabetical"] + orderArguments)).standardOutput)
        let wrong = try citySearch.run(["--index", index, "--match", "fuzzy", "x"])
        #expect(wrong.status == 64 && wrong.standardError.contains("fuzzy"))

        // --typos: a transposition is one edit, said in the text and as "edits" in JSON.
        let typo = try citySearch.run(["--index", index, "--match", "words", "--order", "population", "--typos", "auto", "nwe york"])
        #expect(typo.standardOutput == "1 city matches \"nwe york\"\n  New York, US  (40.714272, -74.005966)  id 5128581  (1 typo)\n")
        let typoJSON = try citySearch.run(["--index", index, "--json", "--typos", "1", "pari"])
        let typoResults = try #require((try JSONSerialization.jsonObject(with: Data(typoJSON.standardOutput.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(typoResults.map { $0["edits"] as? Int } == [0, 0])   // "pari" starts both Parises exactly
        #expect(try citySearch.run(["--index", index, "--typos", "0", "nwe york"]).standardOutput.hasPrefix("0 cities match"))
        // A forgiving word search that finds little also skips words (WORDS.md §9).
        let rioList = directory.appendingPathComponent("rio.json")
        try Data(#"[{"country":"BR","name":"Rio de Janeiro","_id":3451190,"coord":{"lon":-43.18223,"lat":-22.90642}}]"#.utf8).write(to: rioList)
        let rioIndex = directory.appendingPathComponent("rio.cidx").path
        #expect(try buildIndex.run([rioList.path, "-o", rioIndex, "--quiet"]).status == 0)
        let skipped = try citySearch.run(["--index", rioIndex, "--match", "words", "--typos", "1", "rio janeiro"])
        #expect(skipped.standardOutput == "1 city matches \"rio janeiro\"\n  Rio de Janeiro, BR  (-22.90642, -43.18223)  id 3451190  (words skipped)\n")
        let skippedJSON = try citySearch.run(["--index", rioIndex, "--json", "--match", "words", "--typos", "1", "rio janeiro"])
        let skippedResult = try #require(((try JSONSerialization.jsonObject(with: Data(skippedJSON.standardOutput.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?.first)
        #expect(skippedResult["highlights"] as? [[Int]] == [[0, 14]] && skippedResult["skipsWords"] as? Bool == true)
        #expect(skippedResult["region"] is NSNull && skippedResult["regionCode"] is NSNull && skippedResult["regionISO"] is NSNull)
        #expect(try citySearch.run(["--index", rioIndex, "--match", "words", "--typos", "0", "rio janeiro"]).standardOutput.hasPrefix("0 cities match"))
        let badTypos = try citySearch.run(["--index", index, "--typos", "many", "x"])
        #expect(badTypos.status == 64 && badTypos.standardError.contains("many"))
    }

    @Test("build-index reads standard input with '-'")
    func standardInput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("stdin.cidx").path
        let input = try Data(contentsOf: fixtures.appendingPathComponent("small.json.gz"))
        let built = try buildIndex.run(["-", "-o", index, "--quiet"], input: input)
        #expect(built.status == 0, "\(built.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)) == Data(Fixtures.smallIndexBytes))
    }

    @Test("--memory-limit takes sizes with K, M, G suffixes, spills past it and writes the same index; below 1M is a usage error")
    func memoryLimit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scratch = directory.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let input = directory.appendingPathComponent("cities.json")
        try Data(BoundedListFixture.json).write(to: input)
        let plain = directory.appendingPathComponent("plain.cidx").path, bounded = directory.appendingPathComponent("bounded.cidx").path
        #expect(try buildIndex.run([input.path, "-o", plain, "--quiet"]).status == 0)
        let built = try buildIndex.run([input.path, "-o", bounded, "--memory-limit", "1MiB", "--scratch-directory", scratch.path, "--json"])
        #expect(built.status == 0, "\(built.standardError)")
        let runs = built.standardOutput.components(separatedBy: "\"spilledRuns\": ").last.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect((runs ?? 0) > 0, "\(built.standardOutput)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: bounded)) == Data(contentsOf: URL(fileURLWithPath: plain)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        for bad in ["512K", "lots", "-1"] {
            let usage = try buildIndex.run([input.path, "-o", bounded, "--memory-limit", bad])
            #expect(usage.status == 64, "\(bad): \(usage.standardError)")
        }
    }

    @Test("a failed build prints one line, exits 65 and leaves the previous index intact")
    func failedBuildKeepsPreviousFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("cities.cidx")
        let previous = Data("previous contents".utf8)
        try previous.write(to: index)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":95}}]"#.utf8).write(to: bad)
        let built = try buildIndex.run([bad.path, "-o", index.path])
        #expect(built.status == 65)
        #expect(built.standardError == "build-index: \(bad.path):1:60: record _id 1: \"lat\" must be a finite number in -90...90, found 95\n")
        #expect(try Data(contentsOf: index) == previous)
        // No temporary file is left behind either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["bad.json", "cities.cidx"])
    }

    @Test("SIGKILL, SIGTERM or SIGINT during a build leaves the previous index or a complete new one, its mode, and no other file")
    func killDuringBuild() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("cities.cidx")
        let previous = Data(Fixtures.smallIndexBytes)
        // Each signal at least once; the other delays in a full run (TestScale).
        let kills = TestScale.cases([(0.3, SIGTERM), (0.3, SIGINT), (0.2, SIGKILL), (0.05, SIGKILL), (0.5, SIGKILL), (0.8, SIGKILL)],
                                    quick: 3, atLeast: 3)   // each signal, at every scale
        for (delay, signal) in kills {
            try previous.write(to: index)
            chmod(index.path, 0o600)
            let process = Process()
            process.executableURL = Tool.productsDirectory.appendingPathComponent("build-index")
            process.arguments = [Fixtures.defaultDataPath, "-o", index.path, "--quiet"]
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let bytes = try [UInt8](Data(contentsOf: index))
            if bytes != Array(previous) {
                try CityIndex(bytes: bytes).verify()   // renamed into place: complete
            }
            // Before: a 25 MB .cities.cidx.tmp-XXXXXX stayed behind, one more every run.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cities.cidx"], "signal \(signal) after \(delay) s")
            #expect(try FileManager.default.attributesOfItem(atPath: index.path)[.posixPermissions] as? Int == 0o600)
        }
    }

    @Test("SIGKILL, SIGTERM or SIGINT during build-index --compress leaves no plain index in the scratch directory, and no other file")
    func killDuringCompressedBuild() throws {
        let directory = try temporaryDirectory(), scratch = try temporaryDirectory()
        defer { [directory, scratch].forEach { try? FileManager.default.removeItem(at: $0) } }
        let artifact = directory.appendingPathComponent("cities.cidx.xz")
        // An earlier version's leftover, two hours old: swept by the next build.
        let stale = scratch.appendingPathComponent(".cities.cidx.xz.plain-abc123")
        try Data("old".utf8).write(to: stale)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: stale.path)
        // Each signal at least once; the other delays in a full run (TestScale).
        let kills = TestScale.cases([(0.6, SIGTERM), (0.6, SIGINT), (1.5, SIGKILL), (0.3, SIGKILL), (0.9, SIGKILL), (2.5, SIGKILL)],
                                    quick: 3, atLeast: 3)   // each signal, at every scale
        for (delay, signal) in kills {
            let process = Process()
            process.executableURL = Tool.productsDirectory.appendingPathComponent("build-index")
            process.arguments = [Fixtures.defaultDataPath, "-o", artifact.path, "--compress", "xz", "--scratch-directory", scratch.path, "--quiet"]
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            // Before: the 7.6 MB plain index (.cities.cidx.xz.plain-XXXXXX) stayed in the scratch directory.
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [], "signal \(signal) after \(delay) s")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(left == [] || left == ["cities.cidx.xz"], "signal \(signal) after \(delay) s: \(left)")
        }
    }

    @Test("city-search --index ARTIFACT leaves nothing in the temporary directory, killed or not, and refuses one past --max-input-bytes")
    func compressedIndexLeavesNothing() throws {
        let directory = try temporaryDirectory(), temporary = try temporaryDirectory()
        defer { [directory, temporary].forEach { try? FileManager.default.removeItem(at: $0) } }
        let artifact = directory.appendingPathComponent("cities.cidx.xz").path
        let built = try buildIndex.run([Fixtures.defaultDataPath, "-o", artifact, "--compress", "xz", "--quiet"])
        try #require(built.status == 0, "\(built.standardError)")
        let environment = ["TMPDIR": temporary.path]
        let found = try citySearch.run(["--index", artifact, "--limit", "1", "paris"], environment: environment)
        #expect(found.status == 0 && found.standardOutput.contains("Paris"), "\(found.standardError)")
        for delay in [0.0, 0.02, 0.05, 0.1, 0.2] {
            let process = Process()
            process.executableURL = Tool.productsDirectory.appendingPathComponent("city-search")
            process.arguments = ["--index", artifact, "paris"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Before: a killed decompression left $TMPDIR/city-search-XXXXXX (up to 4 GiB).
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [], "SIGKILL after \(delay) s")
        }
        // A decompression bomb stops at the limit (before: 4 GiB written to $TMPDIR, whatever the flag).
        let bomb = try citySearch.run(["--index", artifact, "--max-input-bytes", "1000000", "paris"], environment: environment)
        #expect(bomb.status == 65 && bomb.standardError.contains("decompresses to more than 4000000 bytes (4 times the limit"),
                "\(bomb.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test("names with ESC, BEL, CR, LF or NUL print as visible escapes; CSV fields that start a formula are quoted text")
    func hostileNamesPrintSafely() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("hostile.json")
        try Data(#"""
            [{"country":"XX","name":"Evil\u001b]0;owned\u0007\u001b[2J","_id":1,"coord":{"lon":0,"lat":0}},
             {"country":"XX","name":"Evilline\r\n  Paris, FR  (48.85, 2.35)  id 2988507\u0000","_id":2,"coord":{"lon":0,"lat":0}},
             {"country":"XX","name":"=HYPERLINK(\"http://x\")","_id":3,"coord":{"lon":0,"lat":0}},
             {"country":"XX","name":"@SUM(1)","_id":4,"coord":{"lon":0,"lat":0}}]
            """#.utf8).write(to: list)
        let index = directory.appendingPathComponent("hostile.cidx").path
        let built = try buildIndex.run([list.path, "-o", index, "--json"])
        #expect(built.status == 0, "\(built.standardError)")
        // Kept as given, with a warning that says where the first one is (before: silence).
        #expect(built.standardError.contains("warning: \(list.path):1:30: a control character in a string; 6 control character(s) in all"),
                "\(built.standardError)")
        #expect(built.standardOutput.contains(#""controlCharacters": 6"#), "\(built.standardOutput)")
        let text = try citySearch.run(["--index", index, "evil"])
        // Before: the ESC and BEL sequences retitled the terminal and cleared it, and CR/LF faked a line.
        let controls = text.standardOutput.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F ... 0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(text.standardOutput)")
        #expect(text.standardOutput.split(separator: "\n").count == 3, "\(text.standardOutput)")
        #expect(text.standardOutput.contains(#"Evil\x1B]0;owned\x07\x1B[2J"#) && text.standardOutput.contains(#"Evilline\x0D\x0A  Paris"#),
                "\(text.standardOutput)")
        // A query over the library's limit is a usage error, one line.
        let long = try citySearch.run(["--index", index, "--typos", "3", String(repeating: "x", count: 2_000)])
        #expect(long.status == 64 && long.standardError.contains("2000 bytes, more than the 1024"), "\(long.standardError)")
        let csv = try citySearch.run(["--index", index, "--format", "csv", ""])
        #expect(csv.standardOutput.contains(#"3,"'=HYPERLINK(""http://x"")",XX"#) && csv.standardOutput.contains(#"4,"'@SUM(1)",XX"#),
                "\(csv.standardOutput)")
    }

    @Test("a build removes its own temporary files an earlier build left more than an hour ago, and no others")
    func staleTemporariesSwept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = directory.appendingPathComponent("cities.cidx")
        let stale = directory.appendingPathComponent(".cities.cidx.tmp-abc123")
        let fresh = directory.appendingPathComponent(".cities.cidx.tmp-def456")
        let other = directory.appendingPathComponent(".other.cidx.tmp-abc123")
        for file in [stale, fresh, other] { try Data("left".utf8).write(to: file) }
        let twoHoursAgo = Date().addingTimeInterval(-7_200)
        for file in [stale, other] { try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: file.path) }
        let outcome = try buildIndex.run([fixtures.appendingPathComponent("small.json").path, "-o", index.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == ["cities.cidx", ".cities.cidx.tmp-def456", ".other.cidx.tmp-abc123"])
    }

    @Test("without INPUT: ./Data/cities500.json.xz or $CITYINDEX_DEFAULT_DATASET, never the build machine's path")
    func defaultDataset() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-default-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try buildIndex.run(["-q", "-o", directory.appendingPathComponent("a.cidx").path], in: directory,
                                         environment: ["CITYINDEX_DEFAULT_DATASET": ""])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("Data/cities500.json.xz") && missing.standardError.contains("CITYINDEX_DEFAULT_DATASET"))
        let output = directory.appendingPathComponent("b.cidx")
        let chosen = try buildIndex.run(["--json", "-o", output.path], in: directory,
                                        environment: ["CITYINDEX_DEFAULT_DATASET": fixtures.appendingPathComponent("small.json").path])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        #expect(try CityIndex(path: output.path).cityCount == 13)
    }

    @Test("a missing input exits 66; a usage error exits 64")
    func exitStatuses() throws {
        let missing = try buildIndex.run(["/nonexistent.json", "-o", "/tmp/never.cidx"])
        #expect(missing.status == 66)
        #expect(missing.standardError.hasPrefix("build-index: cannot open '/nonexistent.json'"))
        let usage = try buildIndex.run(["--max-input-bytes", "0"])
        #expect(usage.status == 64)
        let searchUsage = try citySearch.run(["--limit", "-1", "x"])
        #expect(searchUsage.status == 64)
    }

    @Test("build-index refuses an output that is a symbolic link, FIFO or directory, and changes nothing")
    func outputMustBeRegularFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("shared.txt")
        try Data("keep me".utf8).write(to: target)
        let link = directory.appendingPathComponent("link.cidx")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let nullLink = directory.appendingPathComponent("null.cidx")
        try FileManager.default.createSymbolicLink(atPath: nullLink.path, withDestinationPath: "/dev/null")
        let fifo = directory.appendingPathComponent("fifo.cidx")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let folder = directory.appendingPathComponent("folder.cidx")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let input = fixtures.appendingPathComponent("small.json").path
        for (output, kind) in [(link, "a symbolic link"), (nullLink, "a symbolic link"), (fifo, "a FIFO"), (folder, "a directory")] {
            let outcome = try buildIndex.run([input, "-o", output.path])
            #expect(outcome.status == 73, "\(output.lastPathComponent): \(outcome.standardError)")
            #expect(outcome.standardError.contains("it is \(kind)"), "\(outcome.standardError)")
            #expect(outcome.standardError.split(separator: "\n").count == 1)
        }
        let compressed = try buildIndex.run([input, "--compress", "xz", "-o", link.path])
        #expect(compressed.status == 73)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: nullLink.path) == "/dev/null")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".tmp-") })
        // A regular file is replaced as before.
        let regular = directory.appendingPathComponent("regular.cidx")
        try Data("old".utf8).write(to: regular)
        #expect(try buildIndex.run([input, "-o", regular.path]).status == 0)
        #expect(try CityIndex(path: regular.path).cityCount > 0)
    }

    @Test("two city-search processes adding favorites to one file at once lose none")
    func favoritesFromTwoProcesses() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("favorites.json").path
        let ranges = [1 ..< 301, 1_001 ..< 1_301]
        let outcomes = try await withThrowingTaskGroup(of: Tool.Outcome.self) { group in
            for range in ranges {
                // No index to check the ids against (a missing one): they are added as given.
                let arguments = ["--favorites", file, "--index", directory.appendingPathComponent("none.cidx").path]
                    + range.flatMap { ["--add-favorite", String($0)] }
                group.addTask { try Tool(name: "city-search").run(arguments) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.standardError)") }
        let listed = try citySearch.run(["--favorites", file, "--index", fixtures.appendingPathComponent("none.cidx").path,
                                         "--list-favorites"])
        #expect(listed.status == 0)
        #expect(listed.standardOutput.split(separator: "\n").compactMap { Int($0) } == ranges.flatMap { Array($0) })
        let indexPath = directory.appendingPathComponent("small.cidx")
        try Data(Fixtures.smallIndexBytes).write(to: indexPath)
        let named = try citySearch.run(["--favorites", file, "--remove-favorite", "1", "--add-favorite", "707860",
                                        "--index", indexPath.path, "--list-favorites"])
        #expect(named.standardOutput.contains("707860\tHurzuf, UA"))
        #expect(!named.standardOutput.hasPrefix("1\n"))
    }

    @Test("a favorite must be a city of the index; an empty list and a country without cities say so")
    func favoriteAndCountryMessages() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("favorites.json").path
        let indexPath = directory.appendingPathComponent("small.cidx")
        try Data(Fixtures.smallIndexBytes).write(to: indexPath)
        let empty = try citySearch.run(["--favorites", file, "--index", indexPath.path, "--list-favorites"])
        #expect(empty.status == 0 && empty.standardOutput.isEmpty)
        #expect(empty.standardError.contains("no favorites in \(file)"))
        let unknown = try citySearch.run(["--favorites", file, "--index", indexPath.path, "--add-favorite", "42"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("no city has id 42 in \(indexPath.path)"))
        let saved = FileManager.default.fileExists(atPath: file) ? try String(contentsOfFile: file, encoding: .utf8) : ""
        #expect(!saved.contains("42"))
        let known = try citySearch.run(["--favorites", file, "--index", indexPath.path, "--add-favorite", "707860", "--list-favorites"])
        #expect(known.status == 0 && known.standardOutput == "707860\tHurzuf, UA\n")
        // Without an index that opens, ids are added as given, with a warning.
        let unchecked = try citySearch.run(["--favorites", file, "--index", directory.appendingPathComponent("none.cidx").path,
                                            "--add-favorite", "42"])
        #expect(unchecked.status == 0 && unchecked.standardError.contains("without a check"))
        let listed = try citySearch.run(["--favorites", file, "--index", indexPath.path, "--list-favorites"])
        #expect(listed.standardOutput.contains("42\t(not a city of \(indexPath.path))"))
        // A country the index has no city of.
        let nowhere = try citySearch.run(["--index", indexPath.path, "--country", "XX", "--country", "fr", "paris"])
        #expect(nowhere.status == 0)
        #expect(nowhere.standardError.contains("no city of \(indexPath.path) is in XX"))
        #expect(!nowhere.standardError.contains("is in FR"))
        let somewhere = try citySearch.run(["--index", indexPath.path, "--country", "fr", "zzz"])
        #expect(somewhere.status == 0 && somewhere.standardError.isEmpty)
    }

    @Test("SIGKILL while city-search adds favorites leaves the favorites file, its lock, and nothing the next change does not remove")
    func killDuringFavorites() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("favorites.json").path
        for delay in [0.01, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3] {
            let process = Process()
            process.executableURL = Tool.productsDirectory.appendingPathComponent("city-search")
            // 500 changes, each a locked read-change-write of the file: kills land mid-write.
            process.arguments = ["--favorites", file, "--index", directory.appendingPathComponent("none.cidx").path]
                + (1 ... 500).flatMap { ["--add-favorite", String($0)] }
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // Before: Foundation's atomic writes left a .dat.nosync* file behind (19 after 40 kills).
            // A kill in the instant between naming the new file and renaming it over the old one
            // leaves it, named `.favorites.json.tmp-XXXXXX`; the next change (under the lock every
            // writer holds) removes it.
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
            let leftovers = left.subtracting(["favorites.json", "favorites.json.lock"])
            #expect(leftovers.allSatisfy { $0.hasPrefix(".favorites.json.tmp-") && $0.count == 26 }, "after \(delay) s: \(left)")
            let next = try citySearch.run(["favorites", "add", "9999", "--favorites", file, "--index",
                                           directory.appendingPathComponent("none.cidx").path])
            #expect(next.status == 0, "\(next.standardError)")
            let after = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
            #expect(after.isSubset(of: ["favorites.json", "favorites.json.lock"]), "after \(delay) s and a change: \(after)")
        }
    }

    @Test("city-search on a missing or invalid index: one line, non-zero exit, no crash")
    func invalidIndex() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try citySearch.run(["--index", directory.appendingPathComponent("none.cidx").path, "x"])
        #expect(missing.status == 66)
        #expect(missing.standardError.split(separator: "\n").count == 1)
        let garbage = directory.appendingPathComponent("garbage.cidx")
        try Data(repeating: 0x41, count: 1000).write(to: garbage)
        let invalid = try citySearch.run(["--index", garbage.path, "x"])
        #expect(invalid.status == 65)
        #expect(invalid.standardError.contains("does not start with \"CIDX\""))
        #expect(invalid.standardError.split(separator: "\n").count == 1)
        // Not a regular file: refused at once (a FIFO used to block in open()), exit 66.
        let fifo = directory.appendingPathComponent("pipe.cidx").path
        #expect(mkfifo(fifo, 0o644) == 0)
        for path in [fifo, "/dev/zero", directory.path] {
            let refused = try citySearch.run(["--index", path, "x"])
            #expect(refused.status == 66, "\(path): \(refused.standardError)")
            #expect(refused.standardError.contains("is not a regular file"), "\(refused.standardError)")
        }
        // A city list given as the index, plain or compressed, is recognised: build-index is what it needs.
        for list in ["small.json", "small.json.xz", "small.json.gz"] {
            let path = fixtures.appendingPathComponent(list).path
            let listGiven = try citySearch.run(["--index", path, "x"])
            #expect(listGiven.status == 65, "\(list): \(listGiven.standardError)")
            #expect(listGiven.standardError.contains("\(path): this is a JSON city list, not an index: build the index with "
                                                     + "`build-index \(path) -o cities.cidx`"), "\(listGiven.standardError)")
        }
    }
}

/// A list of 6,000 cities, 3 alternate names each: enough to spill with a 1 MiB memory limit.
enum BoundedListFixture {
    static let json: [UInt8] = {
        let syllables = ["ka", "ro", "ber", "lin", "mo", "san", "ta", "vil", "é", "øs"]
        func name(_ value: Int) -> String {
            var rest = value, text = ""
            repeat { text += syllables[rest % syllables.count]; rest /= syllables.count } while rest > 0
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        let cities = (0 ..< 6_000).map { index in
            "{\"_id\":\(index),\"name\":\"\(name(index * 7))\",\"country\":\"FR\",\"coord\":{\"lat\":1.5,\"lon\":2.5},"
                + "\"population\":\(index * 13 % 50_000),\"alternatenames\":[\"\(name(index * 11)) \(name(index))\",\"\(name(index * 3))\",\"\(name(index + 5))\"]}"
        }
        return Array(("[\n" + cities.joined(separator: ",\n") + "\n]").utf8)
    }()
}
