// SHA256Tests.swift: the digest IndexStore pins artifacts with.
import CityIndexArtifacts
import Foundation
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("the FIPS 180-4 example vectors")
    func standardVectors() {
        #expect(SHA256.hexDigest(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("fed in pieces of every size, the digest is the same as sha256sum's")
    func piecesAndSha256sum() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0 ..< 100_003).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let whole = SHA256.hexDigest(of: bytes)
        for pieceSize in [1, 3, 63, 64, 65, 1000, 65_536] {
            var hasher = SHA256()
            for start in stride(from: 0, to: bytes.count, by: pieceSize) {
                bytes[start ..< min(start + pieceSize, bytes.count)].withUnsafeBytes { hasher.update($0) }
            }
            #expect(SHA256.hex(hasher.finalize()) == whole, "pieces of \(pieceSize)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file.path]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return }   // no sha256sum: the vectors above still hold
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(printed.hasPrefix(whole + " "))
    }
}
