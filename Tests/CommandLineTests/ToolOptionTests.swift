// ToolOptionTests.swift: the options and exit statuses of build-index and city-search that no
// other test runs.
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Tool options as documented")
struct ToolOptionTests {
    let buildIndex = Tool(name: "build-index")
    let citySearch = Tool(name: "city-search")

    @Test("--typos 2 forgives two edits in a word, --typos 1 one")
    func twoTypos() throws {
        let directory = try temporaryDirectory("options")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try writeDataIndex(in: directory)
        let one = try citySearch.run(["--typos", "1", "--limit", "1", "frnakfrut"], in: directory)
        #expect(one.status == 0 && one.standardOutput.hasPrefix("0 cities match"), "\(one.standardOutput)")
        let two = try citySearch.run(["--typos", "2", "--limit", "1", "frnakfrut"], in: directory)
        #expect(two.status == 0 && two.standardOutput.contains("Frankfurt am Main") && two.standardOutput.contains("(2 typos)"),
                "\(two.standardOutput)")
    }

    @Test("verify: damage found by the checksum or at open is one line, invalid: why, exit 65; a missing file 66")
    func failingVerify() throws {
        let directory = try temporaryDirectory("options")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("small.cidx").path
        // A name's byte (only the checksum sees it), then the section count (refused at open).
        let name = Fixtures.section("NAME", in: Fixtures.smallIndexBytes)
        for (offset, reason) in [(name.lowerBound + name.count / 2, "the checksum is"), (28, "")] {
            var bytes = Fixtures.smallIndexBytes
            bytes[offset] ^= 0x10
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let outcome = try citySearch.run(["verify", "--index", path])
            #expect(outcome.status == 65, "byte \(offset)")
            #expect(outcome.standardOutput.isEmpty)
            let lines = outcome.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("city-search: \(path): invalid: \(reason)"), "\(outcome.standardError)")
        }
        let missing = try citySearch.run(["verify", "--index", directory.appendingPathComponent("none.cidx").path])
        #expect(missing.status == 66 && !missing.standardError.contains("invalid"), "\(missing.standardError)")
    }

    @Test("build-index exits 74 on a read or decompression error and leaves no output")
    func readErrorIs74() throws {
        let directory = try temporaryDirectory("options")
        defer { try? FileManager.default.removeItem(at: directory) }
        let compressed = try Data(contentsOf: Fixtures.directory.appendingPathComponent("small.json.xz"))
        let truncated = directory.appendingPathComponent("cities.json.xz")
        try compressed.prefix(compressed.count / 2).write(to: truncated)
        let output = directory.appendingPathComponent("out.cidx").path
        let outcome = try buildIndex.run(["-o", output, truncated.path])
        #expect(outcome.status == 74, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the xz data ends before its stream does"), "\(outcome.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cities.json.xz"])
    }

    @Test("--alternate-names all, latin, none decide which alternates are found")
    func alternateNames() throws {
        let directory = try temporaryDirectory("options")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = Fixtures.directory.appendingPathComponent("small.json").path
        var found: [String: [Bool]] = [:]
        for choice in ["all", "latin", "none"] {
            let index = directory.appendingPathComponent("\(choice).cidx").path
            let built = try buildIndex.run(["-o", index, "--alternate-names", choice, "--quiet", input])
            #expect(built.status == 0, "\(choice): \(built.standardError)")
            found[choice] = try ["munich", "мюнхен"].map { query in
                try citySearch.run(["--index", index, "--typos", "0", query]).standardOutput.hasPrefix("1 city matches")
            }
        }
        #expect(found == ["all": [true, true], "latin": [true, false], "none": [false, false]])
        let wrong = try buildIndex.run(["-o", directory.appendingPathComponent("x.cidx").path, "--alternate-names", "some", input])
        #expect(wrong.status == 64)
    }

    @Test("a places.json beside the input names countries; --no-places and --places decide")
    func places() throws {
        let directory = try temporaryDirectory("options")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cities.json").path
        try FileManager.default.copyItem(atPath: Fixtures.directory.appendingPathComponent("small.json").path, toPath: input)
        let places = #"{"countries":[{"code":"FR","code3":"FRA","name":"France","aliases":[]}],"regions":[]}"#
        try Data(places.utf8).write(to: directory.appendingPathComponent("places.json"))
        func parisInFrance(_ options: [String]) throws -> Bool {
            let index = directory.appendingPathComponent("index.cidx").path
            let built = try buildIndex.run(["-o", index, "--quiet"] + options + [input])
            #expect(built.status == 0, "\(options): \(built.standardError)")
            return try citySearch.run(["--index", index, "--limit", "1", "paris,", "france"]).standardOutput.contains("Paris, FR")
        }
        #expect(try parisInFrance([]), "places.json beside the input")
        #expect(try !parisInFrance(["--no-places"]))
        // --places names another file: here one without France.
        let elsewhere = directory.appendingPathComponent("other-places.json")
        try Data(#"{"countries":[],"regions":[]}"#.utf8).write(to: elsewhere)
        #expect(try !parisInFrance(["--places", elsewhere.path]))
    }

    @Test("an unreadable favorites file: exit 74, the file named and left as it is (run as an unprivileged user under root)")
    func unreadableFavorites() throws {
        let directory = try temporaryDirectory("options")
        defer { try? FileManager.default.removeItem(at: directory) }
        let favorites = directory.appendingPathComponent("favorites.json")
        try Data("[2988507]".utf8).write(to: favorites)
        #expect(chmod(favorites.path, 0) == 0)
        let index = directory.appendingPathComponent("small.cidx").path
        try Data(Fixtures.smallIndexBytes).write(to: URL(fileURLWithPath: index))
        // Root reads any file: the tool then runs as nobody, for whom mode 000 is unreadable.
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        for arguments in [["list"], ["add", "4717560"]] {
            let outcome = try citySearch.run(["favorites", "--favorites", favorites.path, "--index", index] + arguments,
                                             launcher: launcher)
            let message = outcome.standardError
            #expect(outcome.status == 74, "\(arguments): \(message)")
            #expect(message.contains("cannot read the favorites file '\(favorites.path)'") && message.contains("left as it is"),
                    "\(arguments): \(message)")
        }
        #expect(chmod(favorites.path, 0o644) == 0)
        #expect(try String(contentsOf: favorites, encoding: .utf8) == "[2988507]")
    }
}
