// SHA256.swift: the SHA-256 digest (FIPS 180-4), streaming, for pinning downloaded artifacts.

/// Computes SHA-256 over bytes fed in any number of pieces.
///
/// The package's own code, so that `IndexStore` can pin artifacts on every platform without a
/// cryptography dependency (CryptoKit exists only on Apple platforms). Checked against the
/// FIPS 180-4 example vectors and `sha256sum`. O(n).
package struct SHA256 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    /// Bytes of an incomplete block, waiting for the rest.
    private var pending: [UInt8] = []
    private var totalByteCount: UInt64 = 0

    package init() { pending.reserveCapacity(64) }

    /// Adds `bytes` to the digested message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        totalByteCount &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0 ..< taken])
            offset = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(block: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(block: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + 64]))
            offset += 64
        }
        if offset < bytes.count { pending.append(contentsOf: bytes[offset...]) }
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added (the value is used up).
    package consuming func finalize() -> [UInt8] {
        let bitCount = totalByteCount &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift))) }
        tail.withUnsafeBytes { buffer in
            for start in stride(from: 0, to: buffer.count, by: 64) {
                compress(block: UnsafeRawBufferPointer(rebasing: buffer[start ..< start + 64]))
            }
        }
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { word in (0 ..< 4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexDigest(of bytes: [UInt8]) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hex(hasher.finalize())
    }

    /// `digest` as lowercase hexadecimal digits.
    package static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// Processes one 64-byte block.
    private mutating func compress(block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for index in 0 ..< 16 {
                schedule[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            for index in 16 ..< 64 {
                let early = schedule[index - 15], late = schedule[index - 2]
                let sigma0 = Self.rotateRight(early, 7) ^ Self.rotateRight(early, 18) ^ (early >> 3)
                let sigma1 = Self.rotateRight(late, 17) ^ Self.rotateRight(late, 19) ^ (late >> 10)
                schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
            }
            var (a, b, c, d, e, f, g, h) = state
            Self.roundConstants.withUnsafeBufferPointer { constants in
                for index in 0 ..< 64 {
                    let sum1 = Self.rotateRight(e, 6) ^ Self.rotateRight(e, 11) ^ Self.rotateRight(e, 25)
                    let choice = (e & f) ^ (~e & g)
                    let first = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                    let sum0 = Self.rotateRight(a, 2) ^ Self.rotateRight(a, 13) ^ Self.rotateRight(a, 22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let second = sum0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ second)
                }
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                     state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
        }
    }
}
