// SectionReplacing.swift: an index file with some sections' bytes replaced, for hostile-file tests.

extension Fixtures {
    /// The index file `bytes` with the contents of the sections named in `replacements` (by
    /// four-character tag) replaced, laid out again as FORMAT.md §2 and §3 require (sections in
    /// table order, each at a multiple of 8, zero padding between), with the header's
    /// `fileByteCount` and the table's offsets and sizes rewritten and the checksum restamped:
    /// a file whose frame is valid, so only what the replaced bytes say can be wrong with it.
    /// Written independently of the library's writer. O(file size).
    public static func replacingSections(_ replacements: [String: [UInt8]], in bytes: [UInt8]) -> [UInt8] {
        let sectionCount = Int(bytes[28])
        func field(_ entry: Int, _ at: Int) -> Int { (0 ..< 8).reduce(0) { $0 | Int(bytes[32 + 24 * entry + at + $1]) << (8 * $1) } }
        var output = Array(bytes[0 ..< 32 + 24 * sectionCount])
        for entry in 0 ..< sectionCount {
            let kind = String(decoding: bytes[32 + 24 * entry ..< 36 + 24 * entry], as: UTF8.self)
            let original = Array(bytes[field(entry, 8) ..< field(entry, 8) + field(entry, 16)])
            let contents = replacements[kind] ?? original
            while output.count % 8 != 0 { output.append(0) }
            let offset = output.count
            for index in 0 ..< 8 {
                output[32 + 24 * entry + 8 + index] = UInt8(truncatingIfNeeded: offset >> (8 * index))
                output[32 + 24 * entry + 16 + index] = UInt8(truncatingIfNeeded: contents.count >> (8 * index))
            }
            output += contents
        }
        for index in 0 ..< 8 { output[16 + index] = UInt8(truncatingIfNeeded: output.count >> (8 * index)) }
        return restamped(output)
    }
}
