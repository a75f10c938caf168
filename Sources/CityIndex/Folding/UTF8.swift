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
