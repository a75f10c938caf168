// CommandShapeTests.swift: city-search's commands, its default search, and the spellings scripts depend on.
import CityIndexTestSupport
import Foundation
import Testing

@Suite("city-search: commands, the default search, earlier spellings")
struct CommandShapeTests {
    let citySearch = Tool(name: "city-search")

    /// Data/'s index, written to a scratch directory the tools run in.
    func dataIndex() throws -> (directory: URL, path: String) {
        let directory = try temporaryDirectory("command-shape")
        return (directory, try writeDataIndex(in: directory))
    }

    /// The ids a search prints as JSON.
    func ids(_ outcome: Tool.Outcome) throws -> [Int] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        return try #require(object["results"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
    }

    @Test("README's forgiving searches: each city first with no flags")
    func readmeExamples() throws {
        let (directory, _) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        let readme = try String(contentsOf: SharedData.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for (query, id) in [("lodz", 3093133), ("pheonix", 5308655), ("ft lauderdale", 4155966), ("wien", 2761369),
                            ("nyc", 5128581), ("rio janeiro", 3451190), ("paris tx", 4717560), ("london canada", 6058560)] {
            #expect(readme.contains("`\(query)`"), "README.md no longer claims \(query)")
            let outcome = try citySearch.run(["--json", "--limit", "1"] + query.split(separator: " ").map(String.init), in: directory)
            #expect(try ids(outcome) == [id], "\(query): \(outcome.standardOutput)")
        }
    }

    @Test("with no flags, the search box's search: pheonix, москва, 東京, sna fran put Phoenix, Moscow, Tokyo, San Francisco first")
    func defaultIsTheSearchBox() throws {
        let (directory, _) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (query, id) in [("pheonix", 5308655), ("москва", 524901), ("東京", 1850147), ("sna fran", 5391959), ("wien", 2761369)] {
            let outcome = try citySearch.run(["--json", "--limit", "3"] + query.split(separator: " ").map(String.init), in: directory)
            #expect(outcome.status == 0, "\(query): \(outcome.standardError)")
            #expect(try ids(outcome).first == id, "\(query): \(outcome.standardOutput)")
            // `search` named is the same command.
            let named = try citySearch.run(["search", "--json", "--limit", "3", query], in: directory)
            #expect(named.standardOutput == outcome.standardOutput, "\(query)")
        }
        // SEARCH.md's search is one set of flags away: the folded name's prefix, alphabetical.
        let exact = try citySearch.run(["--match", "prefix", "--order", "alphabetical", "--typos", "0", "--limit", "2", "san jo"], in: directory)
        #expect(exact.standardOutput.hasPrefix("398 cities match \"san jo\"\n  San Joaquin, Corozal, BZ"), "\(exact.standardOutput)")
        #expect(try citySearch.run(["--match", "prefix", "--order", "alphabetical", "--typos", "0", "pheonix"], in: directory)
            .standardOutput.hasPrefix("0 cities match"))
    }

    @Test("earlier spellings run their commands: --nearest, --id, --inspect, --verify, --add-favorite, --list-favorites")
    func earlierSpellings() throws {
        let (directory, path) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pairs: [([String], [String])] = [
            (["--nearest", "-33.87,151.21", "--limit", "2"], ["nearest", "-33.87,151.21", "--limit", "2"]),
            (["--limit", "2", "--nearest=48.85,2.35", "--json"], ["nearest", "48.85,2.35", "--limit", "2", "--json"]),
            (["--id", "2761369"], ["city", "2761369"]),
            (["--json", "--id=2761369"], ["city", "--json", "2761369"]),
            (["--inspect"], ["inspect"]),
            (["--verify", "--index", path], ["verify", "--index", path]),
        ]
        for (old, new) in pairs {
            let before = try citySearch.run(old, in: directory), after = try citySearch.run(new, in: directory)
            #expect(before.status == 0 && !before.standardOutput.isEmpty, "\(old): \(before.standardError)")
            #expect(before.standardOutput == after.standardOutput && before.status == after.status, "\(old) against \(new)")
        }
        let favorites = directory.appendingPathComponent("favorites.json").path
        let added = try citySearch.run(["--add-favorite", "2761369", "--add-favorite", "5308655", "--list-favorites", "--favorites", favorites],
                                       in: directory)
        #expect(added.status == 0 && added.standardOutput == "2761369\tVienna, AT\n5308655\tPhoenix, US\n", "\(added.standardError)")
        #expect(try citySearch.run(["favorites", "remove", "5308655", "--favorites", favorites], in: directory).status == 0)
        #expect(try citySearch.run(["favorites", "list", "--favorites", favorites], in: directory).standardOutput == "2761369\tVienna, AT\n")
        #expect(try citySearch.run(["--remove-favorite", "2761369", "--favorites", favorites], in: directory).status == 0)
        let empty = try citySearch.run(["favorites", "list", "--favorites", favorites], in: directory)
        #expect(empty.standardOutput.isEmpty && empty.standardError.contains("no favorites"))
    }

    @Test("verify prints one verdict and runs no search: valid (0) or what is wrong (65)")
    func verifyVerdict() throws {
        let (directory, path) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        let valid = try citySearch.run(["verify"], in: directory)
        #expect(valid.status == 0)
        #expect(valid.standardOutput.hasPrefix("cities.cidx: valid (format 8, 234908 cities, "), "\(valid.standardOutput)")
        #expect(valid.standardOutput.split(separator: "\n").count == 1)
        // A byte changed deep in the file: the header's O(1) checks pass, verify does not.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        let damaged = try citySearch.run(["--verify"], in: directory)
        #expect(damaged.status == 65 && damaged.standardOutput.isEmpty)
        #expect(damaged.standardError.hasPrefix("city-search: cities.cidx: invalid: ") && damaged.standardError.split(separator: "\n").count == 1,
                "\(damaged.standardError)")
        let withQuery = try citySearch.run(["verify", "paris"], in: directory)
        #expect(withQuery.status == 64)
    }

    @Test("an option that does nothing where it is given is a usage error that says why, on one line", arguments: [
        (["--within", "5", "paris"], "--within needs --near"),
        (["--limit", "-1", "paris"], "--limit must be 0 or more; got -1"),
        (["--offset", "-3", "paris"], "--offset must be 0 or more; got -3"),
        (["--min-population", "5", "paris"], "Unknown option '--min-population'"),
        (["nearest", "48,2", "--near", "1,2"], "Unknown option '--near'"),
        (["city", "5", "--limit", "3"], "Unknown option '--limit'"),
        (["--verify", "--inspect"], "Unknown option '--inspect'"),
        (["--debounce-milliseconds", "5", "paris"], "Unknown option '--debounce-milliseconds'"),
        (["--json", "--format", "csv", "x"], "--json and --format csv"),
        (["favorites"], "favorites needs a command"),
    ])
    func pointlessOptions(arguments: [String], message: String) throws {
        let (directory, _) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try citySearch.run(arguments, in: directory)
        #expect(outcome.status == 64, "\(arguments)")
        #expect(outcome.standardError.contains(message) && outcome.standardError.split(separator: "\n").count == 1,
                "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test("--help names the CSV columns the output has")
    func helpNamesTheColumns() throws {
        let (directory, _) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try citySearch.run(["--format", "csv", "--limit", "1", "paris"], in: directory)
        let header = try #require(csv.standardOutput.split(separator: "\n").first)
        let help = try citySearch.run(["search", "--help"], in: directory, environment: ["COLUMNS": "400"])
        #expect(help.standardOutput.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
            .contains(String(header)), "\(header)")
    }

    @Test("--explain: the stages that ran, as a table or JSON, then why the first matches are where they are")
    func explain() throws {
        let (directory, _) = try dataIndex()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try citySearch.run(["--explain", "--limit", "3", "paris", "tx"], in: directory)
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("1 city matches \"paris tx\" in ") == true, "\(text.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  stage ") && $0.contains("walks") && $0.contains("nodes") && $0.hasSuffix("time") })
        let stages = lines.compactMap { line in ["forgiving walk", "skipped words", "overshadowed matches", "qualifier", "page"]
            .first { line.hasPrefix("  " + $0 + " ") } }
        #expect(stages == ["forgiving walk", "skipped words", "overshadowed matches", "qualifier", "page"], "\(text.standardOutput)")
        #expect(lines.contains("  1. Paris, TX, US  id 4717560"), "\(text.standardOutput)")
        #expect(lines.contains("       weight 2,478,200: population 24,782 · in the place the query names ×100"), "\(text.standardOutput)")

        let json = try citySearch.run(["--explain", "--json", "--limit", "2", "--offset", "1", "pheonix"], in: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["query"] as? String == "pheonix")
        #expect((object["results"] as? [Any])?.count == 2)
        let traced = try #require(object["stages"] as? [[String: Any]])
        // The first 3 do not decide which matches move (WORDS.md §13): stages 1 to 3 run again
        // for 6; the walk keeps 20 to know whether stage 2 runs.
        #expect(traced.map { $0["name"] as? String } == ["forgiving walk", "skipped words", "whole names", "forgiving walk",
                                                         "skipped words", "whole names", "overshadowed matches", "qualifier", "page"])
        #expect(traced.map { $0["window"] as? Int } == [20, 3, 3, 20, 6, 6, nil, nil, nil])
        for stage in traced {
            for key in ["section", "microseconds", "candidatesIn", "candidatesOut", "count", "walks", "nodesVisited"] {
                #expect(stage[key] != nil, "\(key) missing: \(stage)")
            }
        }
        let rankings = try #require(object["rankings"] as? [[String: Any]])
        #expect(rankings.first?["id"] as? Int == 5308655 && rankings.count == 3, "\(rankings)")
        #expect(rankings.first?["factors"] as? [String] == ["population 1,650,070", "1 typo in the name ÷10"], "\(rankings)")

        let csv = try citySearch.run(["--explain", "--format", "csv", "paris"], in: directory)
        #expect(csv.status == 64 && csv.standardError.contains("--explain prints text or JSON, not csv"), "\(csv.standardError)")
    }
}
