// NameSymbols.swift: the SYMB section, the symbol table that codes names (FORMAT.md §7.2).

/// The `SYMB` section: up to 255 symbols of 1–8 bytes. A coded name is a sequence of codes:
/// code *c* < `symbolCount` stands for symbol *c*, code 255 for the byte that follows it.
///
/// `SymbolSection --> symbolCount:u32, reserved:u32 (0), symbols:u64^symbolCount,
/// lengths:u8^symbolCount, zero bytes to a multiple of 8` (symbol *c* is the first
/// `lengths[c]` bytes of `symbols[c]`, little-endian).
///
/// Invariant (checked by `init(validating:)`): at most 255 symbols, each of length 1…8, and the
/// section holds exactly them. Coded names are not trusted: a code that names no symbol or a
/// final escape makes `decode` fail, and `verify()` reports the name.
struct NameSymbols {
    private let symbols: ByteView
    private let lengths: ByteView
    let symbolCount: Int

    static let escape: UInt8 = 255
    static let maximumSymbolLength = 8

    /// - Complexity: O(symbols) (at most 255 length checks).
    init(validating section: ByteView) throws(IndexFileError) {
        let count = Int(section.uint32(at: 0) ?? 0)
        let expected = UInt64(8 + (9 * min(count, 255) + 7) / 8 * 8)
        guard count <= 255, section.count >= 8 else {
            throw .sectionSizeMismatch(section: .nameSymbols, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        try section.requireByteCount(expected, of: .nameSymbols)
        symbols = section.slice(uncheckedOffset: 8, length: 8 * count)
        lengths = section.slice(uncheckedOffset: 8 + 8 * count, length: count)
        for code in 0 ..< count where !(1 ... Self.maximumSymbolLength).contains(Int(lengths.uint8(uncheckedAt: code))) {
            throw .sectionSizeMismatch(section: .nameSymbols, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        symbolCount = count
    }

    /// The most bytes `coded` can decode to, plus the 8 bytes of slack `decode` writes past
    /// the end of a symbol. O(1).
    static func decodingCapacity(ofCodedByteCount count: Int) -> Int { count * maximumSymbolLength + maximumSymbolLength }

    /// Decodes `coded` into `output` (at least `decodingCapacity` bytes); returns the decoded
    /// length, or `nil` for a code that names no symbol or a final escape.
    /// - Complexity: O(coded length): one 8-byte store per symbol.
    @inline(__always)
    func decode(_ coded: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        var written = 0
        var position = 0
        while position < coded.count {
            let code = coded[position]
            position += 1
            if code == Self.escape {
                guard position < coded.count else { return nil }
                output[written] = coded[position]
                written += 1
                position += 1
            } else {
                guard Int(code) < symbolCount else { return nil }
                output.storeBytes(of: symbols.uint64(uncheckedAt: Int(code) * 8).littleEndian, toByteOffset: written, as: UInt64.self)
                // Clamped although `init` checked 1...8: the mapped file may change after open
                // (FORMAT.md §1.1), and `output` has room for 8 bytes per code, no more.
                written += min(Int(lengths.uint8(uncheckedAt: Int(code))), Self.maximumSymbolLength)
            }
        }
        return written
    }
}

extension IndexContents {
    /// Calls `body` with the UTF-8 of name `slot` of the city at `rank`: 0, its primary name,
    /// read in place from `NAME`; 1..., an alternate, decoded into a temporary buffer (on the
    /// stack for names of up to a few hundred bytes). Empty when the slot does not exist or
    /// does not decode (a damaged file; `verify()` reports it).
    /// - Complexity: O(1) for the primary name; O(size of the city's alternates) otherwise.
    @inline(__always)
    func withName<Result>(ofRank rank: Int, slot: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if slot == 0 { return try body(primaryName(ofRank: rank).buffer) }
        return try withDecoded(alternates.name(ofRank: rank, slot: slot), body)
    }

    /// Calls `body` with `coded` decoded (empty when it does not decode).
    func withDecoded<Result>(_ coded: ByteView, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(byteCount: NameSymbols.decodingCapacity(ofCodedByteCount: coded.count),
                                          alignment: 8) { buffer in
            let length = nameSymbols.decode(coded.buffer, into: buffer) ?? 0
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0 ..< length]))
        }
    }

    /// The UTF-8 of name `slot` of the city at `rank`, decoded (for verification and strings).
    func decodedName(ofRank rank: Int, slot: Int) -> [UInt8] { withName(ofRank: rank, slot: slot) { Array($0) } }
}
