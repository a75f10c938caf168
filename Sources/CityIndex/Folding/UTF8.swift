// UTF8.swift: the UTF-8 encoding and validation the reader needs, without Foundation.

enum UTF8Encoding {
    /// Writes the UTF-8 encoding of scalar `value` into `buffer` at `offset`; returns its
    /// length (1...4). The buffer must have room for 4 bytes at `offset`.
    @inline(__always)
    static func encode(_ value: UInt32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        switch value {
        case 0..<0x80:
            buffer[offset] = UInt8(value)
            return 1
        case 0x80..<0x800:
            buffer[offset] = UInt8(0xC0 | value >> 6)
            buffer[offset + 1] = UInt8(0x80 | value & 0x3F)
            return 2
        case 0x800..<0x10000:
            buffer[offset] = UInt8(0xE0 | value >> 12)
            buffer[offset + 1] = UInt8(0x80 | (value >> 6) & 0x3F)
            buffer[offset + 2] = UInt8(0x80 | value & 0x3F)
            return 3
        default:
            buffer[offset] = UInt8(0xF0 | value >> 18)
            buffer[offset + 1] = UInt8(0x80 | (value >> 12) & 0x3F)
            buffer[offset + 2] = UInt8(0x80 | (value >> 6) & 0x3F)
            buffer[offset + 3] = UInt8(0x80 | value & 0x3F)
            return 4
        }
    }
}

enum UTF8Validation {
    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or values above
    /// U+10FFFF). O(n).
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let (_, length) = UTF8Decoding.decode(bytes, at: offset) else { return false }
            offset += length
        }
        return true
    }
}

/// The one UTF-8 decoder of the package: the reader decodes names with it, the word-key
/// encoder folded text, and the builder's JSON scanner checks input strings with it.
package enum UTF8Decoding {
    /// How many bytes the sequence led by `lead` has (1...4), or `nil` for a byte that cannot
    /// start a well-formed sequence (a continuation byte, C0, C1 or F5...FF).
    @inline(__always)
    package static func sequenceLength(ofLead lead: UInt8) -> Int? {
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC2..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        case 0xF0..<0xF5: return 4
        default: return nil
        }
    }

    /// The scalar starting at `offset` of `bytes` and its length in bytes, or `nil` when the
    /// sequence there is ill-formed: a bad lead or continuation byte, truncated, overlong, a
    /// surrogate or above U+10FFFF.
    @inline(__always)
    package static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        let lead = bytes[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        guard let length = sequenceLength(ofLead: lead), offset + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for index in 1..<length {
            let byte = UInt32(bytes[offset + index])
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | (byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// `decode`, reading an ill-formed sequence as U+FFFD of length 1 (only a damaged file
    /// has one: names are validated when built, and by `verify()`).
    @inline(__always)
    static func scalar(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (Unicode.Scalar, Int) {
        decode(bytes, at: offset) ?? ("\u{FFFD}", 1)
    }
}

extension UTF8Decoding {
    /// The scalars of `bytes` read as UTF-8 (an ill-formed sequence as U+FFFD). O(n).
    static func scalars(of bytes: UnsafeRawBufferPointer) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        var position = 0
        while position < bytes.count {
            let (scalar, length) = scalar(in: bytes, at: position)
            scalars.append(scalar)
            position += length
        }
        return scalars
    }
}
