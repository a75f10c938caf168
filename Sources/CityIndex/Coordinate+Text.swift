// Coordinate+Text.swift: a point as people type it, "LAT,LON".

extension Coordinate {
    /// `text` as "LAT,LON" in degrees ("48.8566,2.3522", spaces allowed around either number),
    /// or `nil`. Each number is plain decimal notation: an optional sign, digits and at most one
    /// point, at most 32 characters; no exponent, "nan" or "inf". Both in range. The one
    /// grammar of city-search's `--near` and `--nearest` and of city-server's `near`.
    public init?(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Self.plainDecimal(parts[0]), let longitude = Self.plainDecimal(parts[1]),
              let point = try? Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        self = point
    }

    /// Plain decimal notation between optional spaces, as a number; `nil` otherwise: the
    /// grammar of each number of "LAT,LON", and of other numbers that go with one (a radius).
    /// O(length).
    public static func plainDecimal(_ text: some StringProtocol) -> Double? {
        let trimmed = text.utf8.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
        var digits = trimmed[...]
        if digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        let isDigit = { (byte: UInt8) in (48 ... 57).contains(byte) }
        guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") }),
              digits.count(where: { $0 == UInt8(ascii: ".") }) <= 1, digits.contains(where: isDigit) else { return nil }
        return Double(String(decoding: trimmed, as: UTF8.self))
    }
}
