// SectionDirectory.swift: where a section lies in an index file, read from its section table.

extension Fixtures {
    /// The byte range of section `kind` (its four-character tag, e.g. `"CITY"`) in the index
    /// file `bytes`, read from the section table as FORMAT.md §2 and §3 lay it out (the
    /// header's `sectionCount` at byte 28, then 24-byte entries from byte 32: kind, flags,
    /// offset u64, byteCount u64), independently of the library's reader. An empty range at 0
    /// when there is no such section. O(number of sections).
    public static func section(_ kind: String, in bytes: [UInt8]) -> Range<Int> {
        guard bytes.count >= 32,
              let entry = (0 ..< Int(bytes[28])).first(where: { 32 + 24 * $0 + 24 <= bytes.count
                  && Array(bytes[32 + 24 * $0 ..< 36 + 24 * $0]) == Array(kind.utf8) })
        else { return 0 ..< 0 }
        func field(_ at: Int) -> Int { (0 ..< 8).reduce(0) { $0 | Int(bytes[32 + 24 * entry + at + $1]) << (8 * $1) } }
        return field(8) ..< field(8) + field(16)
    }
}
