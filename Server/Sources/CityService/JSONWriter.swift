// JSONWriter.swift: JSON text written in order, for the API's responses.
import Hummingbird

/// Writes one JSON value (RFC 8259) into a byte buffer, fields in the order given: the API's
/// responses read the same every time. Strings are escaped (`"`, `\`, control characters,
/// and U+2028/U+2029 for JavaScript); everything else is UTF-8 as is.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the container being written needs a comma before its next element.
    private var needsComma = false

    init() { bytes.reserveCapacity(1_024) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key of the object being written; its value comes next.
    mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { self.value(value) } else { raw("null") }
    }

    mutating func field(_ name: String, _ value: Int?) {
        key(name)
        raw(value.map(String.init) ?? "null")
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        raw(value ? "true" : "false")
    }

    /// A number with at most `decimals` decimals, trailing zeros dropped ("48.85341", "2").
    mutating func field(_ name: String, _ value: Double, decimals: Int) {
        key(name)
        raw(Self.number(value, decimals: decimals))
    }

    mutating func value(_ number: Int) { raw(String(number)) }

    mutating func value(_ number: Double, decimals: Int) { raw(Self.number(number, decimals: decimals)) }

    mutating func value(_ text: String) {
        separate()
        string(text)
        needsComma = true
    }

    /// Text that is JSON already (a number, `null`).
    mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// The text as a response with `Content-Type: application/json`.
    func response(status: HTTPResponse.Status = .ok, contentType: String = "application/json; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType, .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
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
    static func number(_ value: Double, decimals: Int) -> String {
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
