// NameSymbols.swift: the SYMB section, the symbol table that codes names (FORMAT.md §7.2).

/// The `SYMB` section: up to 16,320 symbols of 1–8 bytes. A coded name is a sequence of
/// codes: a byte *c* below `singleByteCodeCount` stands for symbol *c*; a byte *c* from
/// `singleByteCodeCount` to 254 starts a two-byte code, symbol `singleByteCodeCount + (c −
/// singleByteCodeCount) × 256 + next byte`; 255 escapes the byte that follows it.
///
/// `SymbolSection --> symbolCount:u32, singleByteCodeCount:u32, symbols:u64^symbolCount,
/// lengths:u8^symbolCount, zero bytes to a multiple of 8` (symbol *c* is the first
/// `lengths[c]` bytes of `symbols[c]`, little-endian).
///
/// Invariant (checked by `init(validating:)`): `singleByteCodeCount ≤ 255`, no more symbols
/// than the codes can name, each of length 1…8, and the section holds exactly them. Coded
/// names are not trusted: a code that names no symbol, or a final escape or first byte of a
/// two-byte code, makes `decode` fail, and `verify()` reports the name.
struct NameSymbols {
    private let symbols: ByteView
    private let lengths: ByteView
    let symbolCount: Int
    /// Codes below this are one byte; the others up to 254 start two-byte codes.
    let singleByteCodeCount: Int

    static let escape: UInt8 = 255
    static let maximumSymbolLength = 8

    /// The most symbols `singleByteCodeCount` one-byte codes and the two-byte codes can name.
    static func maximumSymbolCount(singleByteCodeCount: Int) -> Int {
        singleByteCodeCount + (Int(escape) - singleByteCodeCount) * 256
    }

    /// - Complexity: O(symbols) (one length check each).
    init(validating section: ByteView) throws(IndexFileError) {
        let count = Int(section.uint32(at: 0) ?? 0)
        let singleByteCodeCount = Int(section.uint32(at: 4) ?? 0)
        let maximumCount = Self.maximumSymbolCount(singleByteCodeCount: min(singleByteCodeCount, Int(Self.escape)))
        let expected = UInt64(8 + (9 * min(count, maximumCount) + 7) / 8 * 8)
        guard singleByteCodeCount <= Int(Self.escape), count <= maximumCount, section.count >= 8 else {
            throw .sectionSizeMismatch(section: .nameSymbols, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        try section.requireByteCount(expected, of: .nameSymbols)
        symbols = section.slice(uncheckedOffset: 8, length: 8 * count)
        lengths = section.slice(uncheckedOffset: 8 + 8 * count, length: count)
        for code in 0 ..< count where !(1 ... Self.maximumSymbolLength).contains(Int(lengths.uint8(uncheckedAt: code))) {
            throw .sectionSizeMismatch(section: .nameSymbols, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        symbolCount = count
        self.singleByteCodeCount = singleByteCodeCount
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
            let code = Int(coded[position])
            position += 1
            var symbol = code
            if code >= singleByteCodeCount {
                guard position < coded.count else { return nil }
                if code == Int(Self.escape) {
                    output[written] = coded[position]
                    written += 1
                    position += 1
                    continue
                }
                symbol = singleByteCodeCount + (code - singleByteCodeCount) << 8 + Int(coded[position])
                position += 1
            }
            guard symbol < symbolCount else { return nil }
            output.storeBytes(of: symbols.uint64(uncheckedAt: symbol * 8).littleEndian, toByteOffset: written, as: UInt64.self)
            // Clamped although `init` checked 1...8: the mapped file may change after open
            // (FORMAT.md §1.1), and `output` has room for 8 bytes per code, no more.
            written += min(Int(lengths.uint8(uncheckedAt: symbol)), Self.maximumSymbolLength)
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
