// NameSymbolsWriter.swift: encoder twin of NameSymbols (FORMAT.md §7.2): a static symbol
// table for name text, trained on the names, and the coder that uses it.
import CityIndex

/// Up to 255 symbols of 1–8 bytes; code *c* < 255 stands for symbol *c*, code 255 escapes the
/// next byte. Every name is coded on its own, so each stays decodable alone (FSST, Boncz,
/// Neumann and Leis, VLDB 2020, without its SIMD tricks).
///
/// Training is FSST's: start with no symbols; five times, code a sample greedily with the
/// current table, count each emitted symbol and each concatenation of two consecutive ones (up
/// to 8 bytes), and keep the 255 with the largest gain (count × length). Deterministic: ties
/// are broken by length, then bytes.
struct NameSymbolsWriter {
    /// The symbols, by code.
    private(set) var symbols: [[UInt8]] = []
    /// For each first byte, the symbols that start with it as (bytes little-endian, length,
    /// code), longest first.
    private var byFirstByte = [[(value: UInt64, length: Int, code: UInt8)]](repeating: [], count: 256)

    static let escape: UInt8 = 255
    static let maximumSymbolCount = 255
    static let maximumSymbolLength = 8

    init(symbols: [[UInt8]]) {
        self.symbols = symbols
        for (code, symbol) in symbols.enumerated() {
            byFirstByte[Int(symbol[0])].append((Self.packed(symbol[...]), symbol.count, UInt8(code)))
        }
        for index in byFirstByte.indices { byFirstByte[index].sort { $0.length > $1.length } }
    }

    /// A table trained on `texts` (a sample of about 1 MB is used).
    static func trained(on texts: [ArraySlice<UInt8>]) -> NameSymbolsWriter {
        let totalBytes = texts.reduce(0) { $0 + $1.count }
        let stride = max(1, totalBytes / (1 << 20))
        let sample = Swift.stride(from: 0, to: texts.count, by: stride).map { texts[$0] }
        var table = NameSymbolsWriter(symbols: [])
        for _ in 0 ..< 5 {
            var counts: [SymbolKey: Int] = [:]
            for text in sample {
                var previous: SymbolKey?
                table.forEachSymbol(in: text) { start, length, _ in
                    let symbol = SymbolKey(text[start ..< start + length])
                    counts[symbol, default: 0] += 1
                    if let previous, previous.length + length <= maximumSymbolLength {
                        counts[previous.appending(symbol), default: 0] += 1
                    }
                    previous = symbol
                }
            }
            let best = counts.sorted { a, b in
                let (gainA, gainB) = (a.value * a.key.length, b.value * b.key.length)
                if gainA != gainB { return gainA > gainB }
                if a.key.length != b.key.length { return a.key.length > b.key.length }
                return a.key.value < b.key.value
            }.prefix(maximumSymbolCount)
            table = NameSymbolsWriter(symbols: best.map { $0.key.bytes })
        }
        return table
    }

    /// Calls `body` with each symbol the greedy coding of `text` emits: its start in `text`, its
    /// length and its code (`escape` for a byte no symbol starts).
    private func forEachSymbol(in text: ArraySlice<UInt8>, _ body: (Int, Int, UInt8) -> Void) {
        var position = text.startIndex
        while position < text.endIndex {
            let remaining = text.endIndex - position
            var window: UInt64 = 0
            for index in 0 ..< min(remaining, 8) { window |= UInt64(text[position + index]) << UInt64(8 * index) }
            var matched = false
            for candidate in byFirstByte[Int(text[position])] where candidate.length <= remaining {
                let mask: UInt64 = candidate.length == 8 ? .max : (1 << UInt64(8 * candidate.length)) - 1
                if window & mask == candidate.value {
                    body(position, candidate.length, candidate.code)
                    position += candidate.length
                    matched = true
                    break
                }
            }
            if !matched {
                body(position, 1, Self.escape)
                position += 1
            }
        }
    }

    /// `text` coded: a code per symbol, an escape and the byte for any other byte.
    func encoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var codes: [UInt8] = []
        codes.reserveCapacity(text.count)
        forEachSymbol(in: text) { start, _, code in
            codes.append(code)
            if code == Self.escape { codes.append(text[start]) }
        }
        return codes
    }

    /// The `SYMB` section: symbol count, reserved, each symbol in 8 bytes (zero padded), then
    /// each symbol's length.
    var sectionBytes: [UInt8] {
        var section = ByteWriter(capacity: 8 + 9 * symbols.count)
        section.appendUInt32(UInt32(symbols.count))
        section.appendUInt32(0)
        for symbol in symbols { section.appendUInt64(Self.packed(symbol[...])) }
        for symbol in symbols { section.appendUInt8(UInt8(symbol.count)) }
        section.pad(toMultipleOf: 8)
        return section.bytes
    }

    private static func packed(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() { value |= UInt64(byte) << UInt64(8 * index) }
        return value
    }

    /// A candidate symbol: its bytes little-endian in a word, and its length.
    private struct SymbolKey: Hashable {
        var value: UInt64
        var length: Int

        init(_ bytes: ArraySlice<UInt8>) {
            value = NameSymbolsWriter.packed(bytes)
            length = bytes.count
        }

        init(value: UInt64, length: Int) {
            self.value = value
            self.length = length
        }

        func appending(_ other: SymbolKey) -> SymbolKey {
            SymbolKey(value: value | other.value << UInt64(8 * length), length: length + other.length)
        }

        var bytes: [UInt8] { (0 ..< length).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) } }
    }
}
