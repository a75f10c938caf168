// JSONScanner.swift: JSON tokens (RFC 8259) read from a byte stream without building a tree.
import CityIndex

/// Reads JSON values token by token. Strings are decoded (every escape, surrogate pairs)
/// and validated as UTF-8; numbers are checked against the JSON grammar; values that are
/// not needed are skipped without recursion, so nesting depth is bounded only by memory.
/// Every error is a `CityListError` at the position where the fault starts.
final class JSONScanner {
    let reader: JSONByteReader
    /// The `_id` of the record being read, for error messages.
    var currentRecordID: UInt32?
    /// How many control characters (U+0000–U+001F, U+007F–U+009F) the strings read so far
    /// decoded to (JSON allows them only escaped), and where the first one is.
    private(set) var controlCharacterCount = 0
    private(set) var firstControlCharacter: CityListError?

    init(reader: JSONByteReader) { self.reader = reader }

    /// An error at `position` (the current position by default).
    func error(_ message: String, at position: InputPosition? = nil) -> CityListError {
        let where_ = position ?? reader.position
        return CityListError(line: where_.line, column: where_.column, recordID: currentRecordID, message: message)
    }

    /// A short description of the value a byte starts, for messages.
    static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the input" }
        switch byte {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x" + String(byte, radix: 16, uppercase: true)
        }
    }

    // MARK: Strings

    /// Reads a string (the opening quote is next) and appends its decoded UTF-8 to `output`.
    func readString(into output: inout [UInt8]) throws {
        let start = reader.position
        guard try reader.next() == UInt8(ascii: "\"") else { throw error("expected a string", at: start) }
        while true {
            _ = reader.takePlainASCII(into: &output)
            let bytePosition = reader.position
            guard let byte = try reader.next() else { throw error("unterminated string", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                try readEscape(into: &output, at: bytePosition)
            case 0x00..<0x20:
                throw error("raw control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) in a string; escape it",
                            at: bytePosition)
            case 0x20..<0x80:
                output.append(byte)
            default:
                try readMultibyteUTF8(lead: byte, into: &output, at: bytePosition)
            }
        }
    }

    private func readEscape(into output: inout [UInt8], at position: InputPosition) throws {
        guard let kind = try reader.next() else { throw error("unterminated escape", at: position) }
        defer {
            if let last = output.last, Self.isControlCharacter(last: last, in: output) { noteControlCharacter(at: position) }
        }
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(kind)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var value = try readHexQuad(at: position)
            if (0xD800...0xDBFF).contains(value) {
                guard try reader.next() == UInt8(ascii: "\\"), try reader.next() == UInt8(ascii: "u") else {
                    throw error("lone surrogate \\u\(String(value, radix: 16, uppercase: true)): a high surrogate must be followed by a low one", at: position)
                }
                let low = try readHexQuad(at: position)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("lone surrogate \\u\(String(value, radix: 16, uppercase: true)): a high surrogate must be followed by a low one", at: position)
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw error("lone surrogate \\u\(String(value, radix: 16, uppercase: true)): a low surrogate without a high one", at: position)
            }
            output.append(contentsOf: String(Unicode.Scalar(value)!).utf8)
        default:
            throw error("invalid escape \\\(Self.describe(kind))", at: position)
        }
    }

    /// Whether `output` ends with a control character: a C0 byte or DEL, or a C1 character
    /// (U+0080–U+009F: the two bytes C2 80–C2 9F).
    private static func isControlCharacter(last: UInt8, in output: [UInt8]) -> Bool {
        if last < 0x20 || last == 0x7F { return true }
        return (0x80...0x9F).contains(last) && output.count >= 2 && output[output.count - 2] == 0xC2
    }

    private func noteControlCharacter(at position: InputPosition) {
        controlCharacterCount += 1
        if firstControlCharacter == nil { firstControlCharacter = error("a control character in a string", at: position) }
    }

    private func readHexQuad(at position: InputPosition) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try reader.next() else { throw error("unterminated \\u escape", at: position) }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape: expected four hex digits", at: position)
            }
            value = value << 4 | digit
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence (no overlong forms, surrogates or values
    /// above U+10FFFF) and appends it.
    private func readMultibyteUTF8(lead: UInt8, into output: inout [UInt8], at position: InputPosition) throws {
        guard let length = UTF8Decoding.sequenceLength(ofLead: lead), length > 1 else {
            throw error("invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)))", at: position)
        }
        var sequence: (UInt32, UInt32) = (0, 0)
        try withUnsafeMutableBytes(of: &sequence) { bytes in
            bytes[0] = lead
            for index in 1..<length {
                guard let byte = try reader.peek(), byte & 0xC0 == 0x80 else {
                    throw error("invalid UTF-8 (truncated sequence after byte 0x\(String(lead, radix: 16, uppercase: true)))", at: position)
                }
                _ = try reader.next()
                bytes[index] = byte
            }
            let sequence = UnsafeRawBufferPointer(rebasing: bytes[..<length])
            guard UTF8Decoding.decode(sequence, at: 0) != nil else {
                throw error("invalid UTF-8 (overlong form, surrogate or value above U+10FFFF)", at: position)
            }
            output.append(bytes: sequence)
        }
    }

    // MARK: Numbers

    /// Reads a number (checked against the JSON grammar) into `text`; returns whether it is
    /// written as an integer (no fraction, no exponent).
    func readNumber(into text: inout [UInt8]) throws -> Bool {
        text.removeAll(keepingCapacity: true)
        let start = reader.position
        var isInteger = true
        func digits() throws -> Int {
            var count = reader.takeDigits(into: &text)
            while let byte = try reader.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                text.append(byte)
                _ = try reader.next()
                count += 1 + reader.takeDigits(into: &text)
            }
            return count
        }
        if try reader.peek() == UInt8(ascii: "-") { text.append(try reader.next()!) }
        let first = try reader.peek()
        let integerDigits = try digits()
        guard integerDigits > 0 else { throw error("invalid number: expected a digit", at: start) }
        if first == UInt8(ascii: "0") && integerDigits > 1 { throw error("invalid number: leading zero", at: start) }
        if try reader.peek() == UInt8(ascii: ".") {
            isInteger = false
            text.append(try reader.next()!)
            guard try digits() > 0 else { throw error("invalid number: expected a digit after '.'", at: start) }
        }
        if let byte = try reader.peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            isInteger = false
            text.append(try reader.next()!)
            if let sign = try reader.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                text.append(try reader.next()!)
            }
            guard try digits() > 0 else { throw error("invalid number: expected a digit in the exponent", at: start) }
        }
        return isInteger
    }

    // MARK: Literals and skipping

    /// Reads `true`, `false` or `null` (the first letter is next).
    func readLiteral() throws {
        let start = reader.position
        let literal: [UInt8]
        switch try reader.peek() {
        case UInt8(ascii: "t"): literal = Array("true".utf8)
        case UInt8(ascii: "f"): literal = Array("false".utf8)
        case UInt8(ascii: "n"): literal = Array("null".utf8)
        default: throw error("expected a value, found \(Self.describe(try reader.peek()))", at: start)
        }
        for expected in literal {
            guard try reader.next() == expected else { throw error("invalid literal: expected '\(String(decoding: literal, as: UTF8.self))'", at: start) }
        }
    }

    /// Skips one value of any type and depth, checking its syntax. Iterative: an explicit
    /// stack of open containers replaces recursion, so deep nesting cannot overflow the
    /// call stack.
    func skipValue() throws {
        var openContainers: [Bool] = []   // true: object, false: array
        var scratch: [UInt8] = []
        while true {
            // A value starts here.
            try reader.skipWhitespace()
            var valueComplete = true
            switch try reader.peek() ?? 0 {
            case UInt8(ascii: "{"):
                _ = try reader.next()
                try reader.skipWhitespace()
                if try reader.peek() == UInt8(ascii: "}") { _ = try reader.next() } else {
                    openContainers.append(true)
                    try readKey(into: &scratch)
                    valueComplete = false
                }
            case UInt8(ascii: "["):
                _ = try reader.next()
                try reader.skipWhitespace()
                if try reader.peek() == UInt8(ascii: "]") { _ = try reader.next() } else {
                    openContainers.append(false)
                    valueComplete = false
                }
            case UInt8(ascii: "\""):
                scratch.removeAll(keepingCapacity: true)
                try readString(into: &scratch)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try readNumber(into: &scratch)
            default:
                try readLiteral()
            }
            guard valueComplete else { continue }
            // After a complete value: close containers or move to the next element.
            while true {
                guard let isObject = openContainers.last else { return }
                try reader.skipWhitespace()
                let byte = try reader.peek()
                if byte == UInt8(ascii: ",") {
                    _ = try reader.next()
                    if isObject { try readKey(into: &scratch) }
                    break
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    _ = try reader.next()
                    openContainers.removeLast()
                } else {
                    throw error("expected ',' or '\(isObject ? "}" : "]")', found \(Self.describe(byte))")
                }
            }
        }
    }

    /// Reads an object key and the colon after it.
    func readKey(into key: inout [UInt8]) throws {
        try reader.skipWhitespace()
        guard try reader.peek() == UInt8(ascii: "\"") else {
            throw error("expected a key string, found \(Self.describe(try reader.peek()))")
        }
        key.removeAll(keepingCapacity: true)
        try readString(into: &key)
        try reader.skipWhitespace()
        let separator = try reader.peek()
        guard separator == UInt8(ascii: ":") else { throw error("expected ':' after a key, found \(Self.describe(separator))") }
        _ = try reader.next()
    }
}
