// SectionDirectory.swift: where a section lies in an index file, read from its section table.

extension Fixtures {
    /// The byte range of section `kind` (its four-character tag, e.g. `"CITY"`) in the index
    /// file `bytes`, read from the section table as FORMAT.md §2 and §3 lay it out (the
    /// header's `sectionCount` at byte 28, then 24-byte entries from byte 32: kind, flags,
    /// offset u64, byteCount u64), independently of the library's reader. An empty range at 0
    /// when there is no such section, or when it would lie outside the file. O(number of sections).
    public static func section(_ kind: String, in bytes: [UInt8]) -> Range<Int> {
        guard bytes.count >= 32,
              let entry = (0 ..< Int(bytes[28])).first(where: { 32 + 24 * $0 + 24 <= bytes.count
                  && Array(bytes[32 + 24 * $0 ..< 36 + 24 * $0]) == Array(kind.utf8) })
        else { return 0 ..< 0 }
        func field(_ at: Int) -> UInt64 { (0 ..< 8).reduce(0) { $0 | UInt64(bytes[32 + 24 * entry + at + $1]) << (8 * $1) } }
        // A hostile table (the fuzzer's inputs) may name any offset and size: outside the file is none.
        let (offset, count) = (field(8), field(16))
        guard offset <= UInt64(bytes.count), count <= UInt64(bytes.count) - offset else { return 0 ..< 0 }
        return Int(offset) ..< Int(offset + count)
    }
}
