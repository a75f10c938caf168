// ParsedCity.swift: one validated record of the city list.

/// A city record as read and validated from the input (the input rules of INPUT.md).
struct ParsedCity {
    var id: UInt32
    /// Two ASCII capitals, first letter in the low byte.
    var countryCode: UInt16
    /// The name's UTF-8 bytes (valid UTF-8, 1...65,535 bytes).
    var nameBytes: [UInt8]
    var latitudeMicrodegrees: Int32
    var longitudeMicrodegrees: Int32
    /// `nil` when the input gives none (or `null`).
    var population: UInt32?
    /// The first-level region's code within the country ("TX"; 1...255 bytes of UTF-8), `nil`
    /// when the input gives none (or `null`).
    var region: [UInt8]?
    /// The alternate names' UTF-8 bytes (valid UTF-8, each at most 65,535 bytes), in input order.
    var alternateNames: [[UInt8]]
    /// Where the record's `{` is.
    var position: InputPosition
}
