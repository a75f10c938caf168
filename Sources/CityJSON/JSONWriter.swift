// JSONWriter.swift: JSON text written in order, for city-search's output and city-server's answers.

/// Writes one JSON value (RFC 8259) into a byte buffer, fields in the order given: answers
/// read the same every time. Strings are escaped (`"`, `\`, control characters, and
/// U+2028/U+2029 for JavaScript); everything else is UTF-8 as is. Compact (`{"a":1,"b":2}`)
/// or, for people reading a terminal, spaced after colons and commas (`{"a": 1, "b": 2}`);
/// one line either way.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the container being written needs a comma before its next element.
    private var needsComma = false
    private let spaced: Bool

    public init(spaced: Bool = false) {
        self.spaced = spaced
        bytes.reserveCapacity(1_024)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func object(_ body: (inout JSONWriter) -> Void) { container("{", "}", body) }

    public mutating func array(_ body: (inout JSONWriter) -> Void) { container("[", "]", body) }

    /// `opening`, what `body` writes, `closing`: one value of the container being written.
    private mutating func container(_ opening: Unicode.Scalar, _ closing: Unicode.Scalar, _ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: opening))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: closing))
        needsComma = true
    }

    /// A key of the object being written; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
        if spaced { bytes.append(UInt8(ascii: " ")) }
        needsComma = false
    }

    public mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { self.value(value) } else { raw("null") }
    }

    public mutating func field(_ name: String, _ value: Int?) {
        key(name)
        raw(value.map(String.init) ?? "null")
    }

    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    /// A number with at most `decimals` decimals, trailing zeros dropped ("48.85341", "2").
    public mutating func field(_ name: String, _ value: Double, decimals: Int) {
        key(name)
        raw(Self.number(value, decimals: decimals))
    }

    public mutating func value(_ number: Int) { raw(String(number)) }

    public mutating func value(_ number: Double, decimals: Int) { raw(Self.number(number, decimals: decimals)) }

    public mutating func value(_ text: String) {
        separate()
        string(text)
        needsComma = true
    }

    /// Text that is JSON already (a number, `null`).
    public mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(contentsOf: spaced ? [UInt8(ascii: ","), UInt8(ascii: " ")] : [UInt8(ascii: ",")]) }
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes.append(contentsOf: #"\""#.utf8)
            case "\\": bytes.append(contentsOf: #"\\"#.utf8)
            case "\n": bytes.append(contentsOf: #"\n"#.utf8)
            case "\r": bytes.append(contentsOf: #"\r"#.utf8)
            case "\t": bytes.append(contentsOf: #"\t"#.utf8)
            case "\u{2028}", "\u{2029}", "\u{00}" ..< "\u{20}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `value` rounded to `decimals` decimals, without trailing zeros or a trailing point.
    public static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0 ..< decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        var integer = String(Int64(scaled / scale))
        var fraction = String(Int64(scaled.truncatingRemainder(dividingBy: scale)))
        fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        if value < 0 && scaled != 0 { integer = "-" + integer }
        return fraction.isEmpty ? integer : integer + "." + fraction
    }
}
