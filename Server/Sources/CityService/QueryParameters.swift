// QueryParameters.swift: a request's query string, decoded strictly.

/// The parameters of a URL's query string (`a=1&b=two`): `+` and percent escapes decoded, each
/// value valid UTF-8, each name given at most once. Anything else is a `BadRequest` that names
/// the parameter, so that a client learns what to fix.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    /// The most bytes a whole query string may have.
    static let maximumByteCount = 4_096

    /// Parses `query` (the part after `?`, still percent-encoded; `nil` when there is none).
    /// O(length of the query).
    init(_ query: String?) throws(BadRequest) {
        guard let query, !query.isEmpty else { return }
        guard query.utf8.count <= Self.maximumByteCount else {
            throw BadRequest(parameter: nil, "the query string has \(query.utf8.count) bytes; at most \(Self.maximumByteCount)")
        }
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], parameter: nil)
            let value = try Self.decode(parts.count > 1 ? Array(parts[1]) : [], parameter: name)
            guard values[name] == nil else { throw BadRequest(parameter: name, "is given more than once") }
            values[name] = value
        }
    }

    /// The value of parameter `name`, or `nil` when the query does not have it.
    subscript(name: String) -> String? { values[name] }

    /// The names given, for rejecting unknown ones.
    var names: some Collection<String> { values.keys }

    /// `+` as a space, `%XX` as the byte XX; the result must be valid UTF-8.
    private static func decode(_ bytes: some Collection<UInt8>, parameter: String?) throws(BadRequest) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw BadRequest(parameter: parameter, "has a malformed percent escape (a % not followed by two hexadecimal digits)")
                }
                decoded.append(high << 4 | low)
            default:
                decoded.append(byte)
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw BadRequest(parameter: parameter, "is not valid UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
