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
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

enum UTF8Decoding {
    /// The scalar starting at `offset` of `bytes` and its length in bytes. An ill-formed
    /// sequence reads as U+FFFD of length 1 (only a damaged file has one: names are
    /// validated when built, and by `verify()`).
    @inline(__always)
    static func scalar(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[offset])
        let length: Int
        var value: UInt32
        let minimum: UInt32
        switch lead {
        case 0x00..<0x80: return (Unicode.Scalar(UInt8(lead)), 1)
        case 0xC2..<0xE0: length = 2; value = lead & 0x1F; minimum = 0x80
        case 0xE0..<0xF0: length = 3; value = lead & 0x0F; minimum = 0x800
        case 0xF0..<0xF5: length = 4; value = lead & 0x07; minimum = 0x10000
        default: return (Unicode.Scalar(0xFFFD)!, 1)
        }
        guard offset + length <= bytes.count else { return (Unicode.Scalar(0xFFFD)!, 1) }
        for index in 1..<length {
            let byte = UInt32(bytes[offset + index])
            guard byte & 0xC0 == 0x80 else { return (Unicode.Scalar(0xFFFD)!, 1) }
            value = value << 6 | (byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (Unicode.Scalar(0xFFFD)!, 1) }
        return (scalar, length)
    }
}

extension ByteView {
    /// The scalars of the bytes read as UTF-8 (an ill-formed sequence as U+FFFD). O(n).
    var scalars: [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        var position = 0
        while position < count {
            let (scalar, length) = UTF8Decoding.scalar(in: buffer, at: position)
            scalars.append(scalar)
            position += length
        }
        return scalars
    }
}
