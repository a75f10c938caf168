// BuilderInputTests.swift: what build-index accepts, and how it rejects the rest.
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Building from valid and invalid input")
struct BuilderInputTests {
    static let fixtures = Fixtures.directory

    private func build(_ json: String) throws -> CityIndex {
        try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes)
    }

    /// The `CityListError` building `json` throws.
    private func failure(_ json: String) -> CityListError? {
        do {
            _ = try IndexBuilder().build(jsonBytes: Array(json.utf8))
            return nil
        } catch {
            guard case .invalidCityList(let error) = error else {
                Issue.record("expected a CityListError, got \(error)")
                return nil
            }
            return error
        }
    }

    static let valid = #"{"country":"UA","name":"Hurzuf","_id":707860,"coord":{"lon":34.283333,"lat":44.549999}}"#

    // MARK: Valid but unusual

    @Test("a byte-order mark, unknown fields, keys in any order and integer coordinates")
    func unusualButValid() throws {
        let json = "\u{FEFF}[ {\"extra\": {\"deep\": [1, {\"x\": null}]}, \"coord\": {\"lat\": 28, \"alt\": 5, \"lon\": -3},"
            + " \"_id\": 5, \"name\": \"A\\/B \\u00e9\\ud83d\\ude42\", \"country\": \"XK\", \"population\": null,"
            + " \"alternatenames\": [\"x\", \"y\"]} ]"
        let index = try build(json)
        let city = try #require(index.city(id: 5))
        #expect(city.name == "A/B é🙂")
        #expect(city.latitude == 28 && city.longitude == -3)
        #expect(city.countryCode == "XK")
        #expect(try index.search("a/b e").count == 1)
    }

    @Test("plain, gzip and xz inputs give the same index, detected by content not name")
    func compressedInputs() throws {
        let plain = try IndexBuilder().build(inputPath: Self.fixtures.appendingPathComponent("small.json").path).bytes
        let gzip = try IndexBuilder().build(inputPath: Self.fixtures.appendingPathComponent("small.json.gz").path)
        let xz = try IndexBuilder().build(inputPath: Self.fixtures.appendingPathComponent("small.json.xz").path)
        #expect(gzip.summary.inputFormat == .gzip && xz.summary.inputFormat == .xz)
        #expect(plain == gzip.bytes && plain == xz.bytes)
        #expect(plain == Fixtures.smallIndexBytes)
        // A gzip file with a misleading name is still read as gzip.
        let renamed = FileManager.default.temporaryDirectory.appendingPathComponent("cities-\(UUID()).json")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("small.json.gz"), to: renamed)
        defer { try? FileManager.default.removeItem(at: renamed) }
        #expect(try IndexBuilder().build(inputPath: renamed.path).bytes == plain)
    }

    @Test("truncated or corrupt compressed streams are input errors", arguments: ["small.json.gz", "small.json.xz"])
    func corruptCompression(file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent(file)))
        do throws(IndexBuildError) {
            _ = try IndexBuilder().build(jsonBytes: Array(bytes.prefix(bytes.count / 2)))
            Issue.record("a truncated stream was accepted")
        } catch {
            guard case .input(.truncatedCompressedData) = error else { Issue.record("\(error)"); return }
        }
        var corrupt = bytes
        for index in stride(from: 20, to: corrupt.count - 20, by: 7) { corrupt[index] ^= 0x5A }
        do throws(IndexBuildError) {
            _ = try IndexBuilder().build(jsonBytes: corrupt)
            Issue.record("a corrupt stream was accepted")
        } catch {
            guard case .input(.corruptCompressedData) = error else { Issue.record("a corrupt stream: \(error)"); return }
        }
    }

    @Test("a decompressed size over the limit is rejected (compression bombs)")
    func inputLimit() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("small.json.xz")))
        #expect(throws: IndexBuildError.input(.inputTooLarge(limitByteCount: 100))) {
            try IndexBuilder(maximumInputByteCount: 100).build(jsonBytes: bytes)
        }
    }

    // MARK: Invalid

    @Test("malformed JSON and broken rules name the line, column and record", arguments: [
        ("", 1, 1, nil, "the input is empty"),
        ("{}", 1, 1, nil, "expected '[' to start the city list"),
        ("[\n" + valid, 2, 88, nil, "expected ',' or ']' after a city, found the end of the input"),
        ("[" + valid + "] x", 1, 91, nil, "unexpected 'x' after the end of the city list"),
        ("[" + valid + ",]", 1, 90, nil, "expected a city object, found ']'"),
        ("[1]", 1, 2, nil, "expected a city object, found a number"),
        (#"[{"country":"UA","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 2, 1, "the city has no \"name\""),
        (#"[{"country":"UA","name":null,"_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 25, nil, "\"name\" must be a string, found null"),
        (#"[{"country":"UA","name":"","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 25, 1, "\"name\" must not be empty"),
        (#"[{"country":"ua","name":"A","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 13, 1, "\"country\" must be two capital letters"),
        (#"[{"country":"UAX","name":"A","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 13, 1, "\"country\" must be two capital letters"),
        (#"[{"country":"UA","name":"A","_id":1.5,"coord":{"lon":0,"lat":0}}]"#, 1, 35, nil, "\"_id\" must be an integer, found 1.5"),
        (#"[{"country":"UA","name":"A","_id":-1,"coord":{"lon":0,"lat":0}}]"#, 1, 35, nil, "\"_id\" must be in 0...4294967295, found -1"),
        (#"[{"country":"UA","name":"A","_id":4294967296,"coord":{"lon":0,"lat":0}}]"#, 1, 35, nil, "must be in 0...4294967295"),
        (#"[{"country":"UA","name":"A","_id":"7","coord":{"lon":0,"lat":0}}]"#, 1, 35, nil, "\"_id\" must be an integer, found a string"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":91}}]"#, 1, 60, 1, "\"lat\" must be a finite number in -90...90, found 91"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":1e999,"lat":0}}]"#, 1, 52, 1, "\"lon\" must be a finite number in -180...180, found 1e999"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":NaN,"lat":0}}]"#, 1, 52, 1, "\"lon\" must be a number"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":"1","lat":0}}]"#, 1, 52, 1, "\"lon\" must be a number, found a string"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0}}]"#, 1, 45, 1, "\"coord\" has no \"lat\""),
        (#"[{"country":"UA","name":"A","name":"B","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 29, nil, "duplicate key \"name\""),
        ("[{\"country\":\"UA\",\"name\":\"A\u{1}\",\"_id\":1,\"coord\":{\"lon\":0,\"lat\":0}}]", 1, 27, nil, "raw control character U+0001"),
        (#"[{"country":"UA","name":"\ud800x","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 26, nil, "lone surrogate"),
        (#"[{"country":"UA","name":"\udc00","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 26, nil, "lone surrogate"),
        (#"[{"country":"UA","name":"A\q","_id":1,"coord":{"lon":0,"lat":0}}]"#, 1, 27, nil, "invalid escape"),
        (#"[{"country":"UA","name":"A","_id":01,"coord":{"lon":0,"lat":0}}]"#, 1, 35, nil, "leading zero"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":0},"population":-5}]"#, 1, 76, 1, "\"population\" must be in"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":0}}"#, 1, 63, nil, "expected ',' or ']' after a city"),
        (#"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":0}"#, 1, 62, 1, "expected ',' or '}' in a city, found the end"),
        (#"[{"country":"UA","name":"A,"_id":1}]"#, 1, 29, nil, "expected ',' or '}' in a city, found '_'"),
    ] as [(String, Int, Int, UInt32?, String)])
    func rejects(json: String, line: Int, column: Int, recordID: UInt32?, message: String) throws {
        let error = try #require(failure(json))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.recordID == recordID, "\(error)")
    }

    @Test("a duplicate _id names both positions")
    func duplicateID() throws {
        let json = "[\n" + Self.valid + ",\n" + Self.valid.replacingOccurrences(of: "Hurzuf", with: "Other") + "\n]"
        let error = try #require(failure(json))
        #expect(error.line == 3 && error.column == 1 && error.recordID == 707860)
        #expect(error.message == "duplicate _id 707860: also at 2:1")
    }

    @Test("invalid UTF-8 in a string is rejected at its position")
    func invalidUTF8() throws {
        var bytes = Array(#"[{"country":"UA","name":"A"#.utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(#"","_id":1,"coord":{"lon":0,"lat":0}}]"#.utf8)
        do throws(IndexBuildError) {
            _ = try IndexBuilder().build(jsonBytes: bytes)
            Issue.record("expected an error")
        } catch {
            guard case .invalidCityList(let error) = error else { Issue.record("\(error)"); return }
            #expect(error.message.contains("invalid UTF-8"))
            #expect(error.line == 1 && error.column == 27)
        }
    }

    @Test("100,000 levels of nesting in an unknown field: no stack overflow")
    func deepNesting() throws {
        let depth = 100_000
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let json = #"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":0},"x":"# + deep + "}]"
        #expect(try build(json).cityCount == 1)
        let unbalanced = #"[{"country":"UA","name":"A","_id":1,"coord":{"lon":0,"lat":0},"x":"# + String(repeating: "[", count: depth)
        #expect(failure(unbalanced) != nil)
    }
}

@Suite("Building from Swift values")
struct BuildFromRecordsTests {
    @Test("CityRecord values build the same index as the equivalent JSON, and break the same rules")
    func recordsMatchJSON() throws {
        let cities = [
            CityRecord(id: 2988507, name: "Paris", countryCode: "FR", latitude: 48.85341, longitude: 2.3488, population: 2138551,
                       alternateNames: ["Lutetia", "Pa\"ris\\"]),
            CityRecord(id: 707860, name: "Hurzuf", countryCode: "UA", latitude: 44.549999, longitude: 34.283333),
            CityRecord(id: 2867714, name: "München", countryCode: "DE", latitude: 48.13743, longitude: 11.57549, alternateNames: ["Munich"]),
        ]
        let json = #"""
            [{"_id":2988507,"name":"Paris","country":"FR","coord":{"lat":48.85341,"lon":2.3488},"population":2138551,"alternatenames":["Lutetia","Pa\"ris\\"]},
             {"_id":707860,"name":"Hurzuf","country":"UA","coord":{"lat":44.549999,"lon":34.283333}},
             {"_id":2867714,"name":"München","country":"DE","coord":{"lat":48.13743,"lon":11.57549},"alternatenames":["Munich"]}]
            """#
        #expect(try IndexBuilder().build(cities: cities).bytes == IndexBuilder().build(jsonBytes: Array(json.utf8)).bytes)

        var broken = cities
        broken[2].latitude = .nan
        do throws(IndexBuildError) {
            _ = try IndexBuilder().build(cities: broken)
            Issue.record("a NaN latitude was accepted")
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.line == 4 && listError.recordID == 2867714, "\(listError)")
            #expect(listError.message.contains("lat"))
        }
        #expect(throws: IndexBuildError.self) {
            try IndexBuilder().build(cities: [cities[0], cities[0]])   // duplicate id
        }
    }
}

@Suite("Builder conveniences")
struct BuilderConvenienceTests {
    @Test("writing a file section by section (spooled) gives the bytes of the in-memory build, on Data/")
    func spooledFileMatchesMemory() throws {
        let input = SharedData.packageRoot.appendingPathComponent("Data/cities500.json.xz").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("spooled-\(UUID()).cidx").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let summary = try IndexBuilder().build(inputPath: input, outputPath: output)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        let inMemory = try IndexBuilder().build(inputPath: input)
        #expect(written.count == summary.fileByteCount)
        #expect(written == inMemory.bytes)
        #expect(summary.sections.map(\.byteCount) == inMemory.summary.sections.map(\.byteCount))
        // Nothing but the output is left beside it (the spool is unlinked when made).
        let directory = URL(fileURLWithPath: output).deletingLastPathComponent().path
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.hasPrefix("." + URL(fileURLWithPath: output).lastPathComponent)
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("file URLs in and out; every phase after reading is reported, in order")
    func urlsAndPhases() throws {
        let input = Fixtures.directory.appendingPathComponent("small.json.xz")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("builder-\(UUID()).cidx")
        defer { try? FileManager.default.removeItem(at: output) }
        let phases = PhaseLog()
        var builder = IndexBuilder()
        builder.phaseStarted = { phases.append($0) }
        let summary = try builder.build(contentsOf: input, writingTo: output)
        #expect(try CityIndex(contentsOfFile: output).cityCount == summary.cityCount)
        #expect(phases.all == ["ordering", "records", "word index", "top lists", "writing"])
        #expect(try builder.build(contentsOf: input).bytes == Data(contentsOf: output).map { $0 })
        #expect(throws: IndexBuildError.self) { try IndexBuilder().build(contentsOf: URL(string: "https://example.com/c.json")!) }
    }
}

/// The phases a build reported (the callback is `@Sendable`).
final class PhaseLog: @unchecked Sendable {
    private let lock = NSLock()
    private var phases: [String] = []
    func append(_ phase: String) { lock.withLock { phases.append(phase) } }
    var all: [String] { lock.withLock { phases } }
}

private extension CityIndex {
    init(contentsOfFile url: URL) throws { try self.init(path: url.path) }
}

@Suite("Format limits")
struct FormatLimitTests {
    @Test("a list that passes a 32-bit limit fails with the limit and the record, not a trap (limits lowered to reach them)")
    func limitsNameThemselves() throws {
        let json = try [UInt8](Data(contentsOf: Fixtures.directory.appendingPathComponent("small.json")))
        var builder = IndexBuilder()
        builder.limits.maximumArenaByteCount = 60
        do throws(IndexBuildError) {
            _ = try builder.build(jsonBytes: json)
            Issue.record("a list past the text limit was built")
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.message.contains("too large for one index") && listError.message.contains("passes 60"), "\(listError)")
            #expect(listError.recordID != nil && listError.line > 1, "\(listError)")
        }
        // Section limits: 32-bit offsets for most, 31-bit child distances for the tries.
        var sections = IndexBuilder()
        sections.limits.maximumSectionByteCount = 64
        var tries = IndexBuilder()
        tries.limits.maximumTrieSectionByteCount = 16
        for (limited, reason) in [(sections, "32-bit offsets"), (tries, "31-bit child distances")] {
            do throws(IndexBuildError) {
                _ = try limited.build(jsonBytes: json)
                Issue.record("a section past its limit (\(reason)) was written")
            } catch {
                guard case .formatLimitExceeded(let detail) = error else { Issue.record("\(error)"); continue }
                #expect(detail.contains(reason) && detail.contains("section would be"), "\(detail)")
            }
        }
    }
}
