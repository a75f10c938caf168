// ArtifactCodecTests.swift: gzip and xz in both directions, gzip framing, bounds.
import CityIndexArtifacts
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Compressed artifacts (gzip framing, xz, bounds)")
struct ArtifactCodecTests {
    /// Bytes that compress somewhat, like an index: a repeating ramp with noise.
    static func sampleBytes(count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index in UInt8(truncatingIfNeeded: index / 7) ^ (random.next() % 8 == 0 ? UInt8.random(in: 0...255, using: &random) : 0) }
    }

    @Test("compress then decompress gives the bytes back", arguments: [CompressionFormat.gzip, .xz], [0, 1, 65_535, 65_536, 300_001])
    func roundTrip(format: CompressionFormat, count: Int) throws {
        let bytes = Self.sampleBytes(count: count, seed: UInt64(count))
        let compressed = try ArtifactCodec.compress(bytes, as: format)
        #expect(CompressionFormat.detect(fromPrefix: compressed) == format)
        #expect(try ArtifactCodec.decompress(compressed, maximumByteCount: count) == bytes)
    }

    @Test("streamed compression gives the same bytes however the input is cut, and from a source", arguments: [CompressionFormat.gzip, .xz])
    func streamingIsChunkingIndependent(format: CompressionFormat) throws {
        let bytes = Self.sampleBytes(count: 700_001, seed: 21)
        let whole = try ArtifactCodec.compress(bytes, as: format)
        var random = SeededGenerator(seed: 5)
        for _ in 0 ..< 3 {
            let encoder = try #require(try ArtifactCodec.encoder(for: format))
            var output: [UInt8] = []
            var offset = 0
            try bytes.withUnsafeBytes { all in
                while offset < all.count {
                    // Chunks of 0 bytes to 200 KB, the last one marked.
                    let count = min(all.count - offset, [0, 1, 7, 4_096, 65_537, 200_000].randomElement(using: &random)!)
                    try encoder.encode(UnsafeRawBufferPointer(rebasing: all[offset ..< offset + count]), isLast: false) { output += $0 }
                    offset += count
                }
                try encoder.encode(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true) { output += $0 }
            }
            #expect(output == whole)
        }
        var fromSource: [UInt8] = []
        try ArtifactCodec.compress(MemorySource(bytes), as: format) { fromSource += $0 }
        #expect(fromSource == whole)
        #expect(try ArtifactCodec.decompress(whole, maximumByteCount: bytes.count) == bytes)
    }

    @Test("our gzip is read by the gzip tool, and the gzip tool's by us")
    func interoperatesWithGzipTool() throws {
        let bytes = Self.sampleBytes(count: 100_000, seed: 3)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("artifact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ours = directory.appendingPathComponent("ours.gz")
        try Data(ArtifactCodec.compress(bytes, as: .gzip)).write(to: ours)
        #expect(try run("/bin/sh", ["-c", "gzip -dc '\(ours.path)'"]) == bytes)
        let plain = directory.appendingPathComponent("named.bin")
        try Data(bytes).write(to: plain)
        // -N records the file name and time: header fields we must skip.
        let theirs = try run("/bin/sh", ["-c", "gzip -9 -N -c '\(plain.path)'"])
        #expect(theirs[3] & 0x08 != 0, "the gzip tool recorded a name")
        #expect(try ArtifactCodec.decompress(theirs, maximumByteCount: bytes.count) == bytes)
    }

    @Test("every optional header field is skipped: extra, name, comment, header CRC")
    func optionalHeaderFields() throws {
        let bytes = Array("Hurzuf, Łódź, München".utf8)
        let member = try ArtifactCodec.compress(bytes, as: .gzip)
        var header: [UInt8] = [0x1F, 0x8B, 8, 0x04 | 0x08 | 0x10 | 0x02, 1, 2, 3, 4, 0, 3]
        header += [5, 0, 1, 2, 3, 4, 5]                   // extra field of 5 bytes
        header += Array("cities.json".utf8) + [0]        // name
        header += Array("a comment".utf8) + [0]          // comment
        header += [0xAB, 0xCD]                           // header CRC (not checked)
        let rewritten = header + member[10...]
        #expect(try ArtifactCodec.decompress(rewritten, maximumByteCount: 1000) == bytes)
    }

    @Test("concatenated members are read in turn")
    func concatenatedMembers() throws {
        let first = Array("first member, ".utf8), second = Array("second member".utf8)
        let stream = try ArtifactCodec.compress(first, as: .gzip) + ArtifactCodec.compress(second, as: .gzip)
        #expect(try ArtifactCodec.decompress(stream, maximumByteCount: 1000) == first + second)
    }

    @Test("a wrong CRC-32, a wrong length, reserved flags or trailing bytes are errors")
    func damagedFraming() throws {
        let bytes = Self.sampleBytes(count: 5_000, seed: 9)
        let member = try ArtifactCodec.compress(bytes, as: .gzip)
        func expectCorrupt(_ damaged: [UInt8], mentioning phrase: String, sourceLocation: SourceLocation = #_sourceLocation) {
            do {
                _ = try ArtifactCodec.decompress(damaged, maximumByteCount: 1 << 20)
                Issue.record("accepted a damaged stream", sourceLocation: sourceLocation)
            } catch {
                guard case .corruptCompressedData(.gzip, let detail) = error else {
                    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
                    return
                }
                #expect(detail.contains(phrase), "\(detail)", sourceLocation: sourceLocation)
            }
        }
        var wrongCRC = member
        wrongCRC[member.count - 8] ^= 0x01
        expectCorrupt(wrongCRC, mentioning: "CRC-32")
        var wrongLength = member
        wrongLength[member.count - 4] ^= 0x01
        expectCorrupt(wrongLength, mentioning: "length")
        var reserved = member
        reserved[3] = 0x20
        expectCorrupt(reserved, mentioning: "reserved")
        var method = member
        method[2] = 7
        expectCorrupt(method, mentioning: "method")
        expectCorrupt(member + [0x00, 0x01], mentioning: "after gzip member 1")
    }

    @Test("every truncation of a member is an error, never a short answer", arguments: [CompressionFormat.gzip, .xz])
    func truncations(format: CompressionFormat) throws {
        let bytes = Self.sampleBytes(count: 3_000, seed: 11)
        let compressed = try ArtifactCodec.compress(bytes, as: format)
        // Below 6 bytes an xz stream is not recognizable as one and reads as plain bytes.
        for length in CompressionFormat.magicByteCount ..< compressed.count {
            #expect(throws: InputError.self, "truncated to \(length) bytes") {
                try ArtifactCodec.decompress(Array(compressed[..<length]), maximumByteCount: 1 << 20)
            }
        }
    }

    @Test("output is bounded: compressed and plain bytes over the limit are refused", arguments: [CompressionFormat.none, .gzip, .xz])
    func outputBound(format: CompressionFormat) throws {
        let bytes = [UInt8](repeating: 0x41, count: 1 << 20)
        let compressed = try ArtifactCodec.compress(bytes, as: format)
        #expect(throws: InputError.inputTooLarge(limitByteCount: 4096)) {
            try ArtifactCodec.decompress(compressed, maximumByteCount: 4096)
        }
        #expect(try ArtifactCodec.decompress(compressed, maximumByteCount: bytes.count) == bytes)
    }

    @Test("atomic writes replace a file whole and leave no temporary file")
    func atomicWrite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cities.cidx").path
        try AtomicFileWriter.write([1, 2, 3], to: path)
        try AtomicFileWriter.write(chunks: [[4, 5], [6]], to: path)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == [4, 5, 6])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cities.cidx"])
        #expect(throws: AtomicFileWriter.WriteError.self) {
            try AtomicFileWriter.write([1], to: directory.appendingPathComponent("missing/cities.cidx").path)
        }
    }

    /// Runs a tool and returns its standard output.
    private func run(_ executable: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSetupError("\(arguments) exited with \(process.terminationStatus)") }
        return [UInt8](data)
    }
}
