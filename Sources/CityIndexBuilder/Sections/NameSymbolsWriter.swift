// NameSymbolsWriter.swift: encoder twin of NameSymbols (FORMAT.md §7.2): a static symbol
// table for name text, trained on the names, and the coder that uses it.
import CityIndex

/// Up to 16,320 symbols of 1–8 bytes, coded in one byte (the most frequent, up to 192) or two;
/// byte 255 escapes the next byte. Every name is coded on its own, so each stays decodable
/// alone (FSST, Boncz, Neumann and Leis, VLDB 2020, without its SIMD tricks, and with two-byte
/// codes: names in many scripts need more symbols than one byte can name).
///
/// Training is FSST's: start with no symbols; five times, code a sample greedily with the
/// current table, count each emitted symbol and each concatenation of two consecutive ones (up
/// to 8 bytes), and keep the 16,320 with the largest gain (count × length). Names are coded
/// with an optimal parse (`encoded(_:)`), not training's greedy one; the 192 symbols that
/// coding uses most on the sample get the one-byte codes (all get one when there are at most 255).
/// Deterministic: ties are broken by length, then bytes.
/// (Tests reach the table and the coder with `@_spi(Testing) import CityIndexBuilder`.)
@_spi(Testing) public struct NameSymbolsWriter {
    /// The symbols, by symbol number.
    private(set) var symbols: [[UInt8]] = []
    /// Symbols below this number have one-byte codes.
    private(set) var singleByteCodeCount = 0
    /// The symbols by length and bytes (little-endian) → symbol number.
    private var lookup: SymbolLookupTable
    /// For each first byte, the longest symbol that starts with it (0: none).
    private var longestStartingWith = [Int](repeating: 0, count: 256)
    /// For each three first bytes, bit *n* set when some symbol of *n* ≥ 3 bytes may start
    /// with them: the optimal parse looks up only those lengths in `lookup`. Indexed by the
    /// first two bytes and the low 4 bits of the third (`longLengthIndex`; 2 MB, where all
    /// three bytes would take 32 MB): bits set for another third byte only cost a lookup.
    private var longLengthsStartingWith = [UInt16](repeating: 0, count: 1 << 20)
    /// The number of each symbol of one byte *b* (at *b*) and of two bytes (at `256 + b0 << 8
    /// | b1`); -1 for none.
    private var shortSymbols = [Int32](repeating: -1, count: 256 + 65_536)

    static let escape: UInt8 = 255
    static let maximumSingleByteCodeCount = 192
    static let maximumSymbolLength = 8
    /// 192 one-byte codes, then 63 first bytes (192…254) of 256 two-byte codes each.
    static let maximumSymbolCount = maximumSingleByteCodeCount + (Int(escape) - maximumSingleByteCodeCount) * 256

    @_spi(Testing) public init(symbols: [[UInt8]], singleByteCodeCount: Int) {
        self.symbols = symbols
        self.singleByteCodeCount = singleByteCodeCount
        lookup = SymbolLookupTable(capacityFor: symbols.count)
        for (number, symbol) in symbols.enumerated() {
            lookup.insert(Self.packed(symbol[...]), length: symbol.count, number: number)
            longestStartingWith[Int(symbol[0])] = max(longestStartingWith[Int(symbol[0])], symbol.count)
            switch symbol.count {
            case 1: shortSymbols[Int(symbol[0])] = Int32(number)
            case 2: shortSymbols[256 + (Int(symbol[0]) << 8 | Int(symbol[1]))] = Int32(number)
            default: longLengthsStartingWith[Self.longLengthIndex(symbol[0], symbol[1], symbol[2])] |= 1 << UInt16(symbol.count)
            }
        }
    }

    /// A table trained on `texts` (a sample of about 1 MB is used).
    static func trained(on texts: [ArraySlice<UInt8>]) -> NameSymbolsWriter {
        let totalBytes = texts.reduce(0) { $0 + $1.count }
        let stride = max(1, totalBytes / (1 << 20))
        let sample = Swift.stride(from: 0, to: texts.count, by: stride).map { texts[$0] }
        var table = NameSymbolsWriter(symbols: [], singleByteCodeCount: 0)
        var chosen: [(key: SymbolKey, count: Int)] = []
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
            chosen = counts.sorted { a, b in
                let (gainA, gainB) = (a.value * a.key.length, b.value * b.key.length)
                if gainA != gainB { return gainA > gainB }
                if a.key.length != b.key.length { return a.key.length > b.key.length }
                return a.key.value < b.key.value
            }.prefix(maximumSymbolCount).map { ($0.key, $0.value) }
            table = NameSymbolsWriter(symbols: chosen.map { $0.key.bytes }, singleByteCodeCount: chosen.count)
        }
        guard chosen.count > Int(escape) else { return table }
        // Too many for one byte each: the symbols the names' coding (`encoded`: an optimal
        // parse, not training's greedy one) uses most get the one-byte codes, counted in a
        // coding of the sample where every symbol's code has two bytes. (On `Data/` this codes
        // the alternate names 0.25% smaller than the counts of training's last greedy round.)
        let twoByteCodes = NameSymbolsWriter(symbols: table.symbols, singleByteCodeCount: 0)
        var uses = [Int](repeating: 0, count: table.symbols.count)
        for text in sample {
            let codes = twoByteCodes.encoded(text)
            for position in Swift.stride(from: 0, to: codes.count, by: 2) where codes[position] != escape {
                uses[Int(codes[position]) << 8 | Int(codes[position + 1])] += 1
            }
        }
        let byUse = table.symbols.indices.sorted { a, b in
            if uses[a] != uses[b] { return uses[a] > uses[b] }
            if table.symbols[a].count != table.symbols[b].count { return table.symbols[a].count > table.symbols[b].count }
            return packed(table.symbols[a][...]) < packed(table.symbols[b][...])
        }
        return NameSymbolsWriter(symbols: byUse.map { table.symbols[$0] }, singleByteCodeCount: maximumSingleByteCodeCount)
    }

    /// Calls `body` with each symbol the greedy coding of `text` (training's) emits: its start
    /// in `text`, its length and its number (`nil` for a byte no symbol starts).
    private func forEachSymbol(in text: ArraySlice<UInt8>, _ body: (Int, Int, Int?) -> Void) {
        var position = text.startIndex
        while position < text.endIndex {
            let remaining = text.endIndex - position
            var window: UInt64 = 0
            for index in 0 ..< min(remaining, 8) { window |= UInt64(text[position + index]) << UInt64(8 * index) }
            var length = min(remaining, longestStartingWith[Int(text[position])])
            var symbol: Int?
            while length > 0 {
                let mask: UInt64 = length == 8 ? .max : (1 << UInt64(8 * length)) - 1
                if let match = lookup.number(of: window & mask, length: length) {
                    symbol = match
                    break
                }
                length -= 1
            }
            body(position, max(length, 1), symbol)
            position += max(length, 1)
        }
    }

    /// `text` coded in the fewest bytes the table allows: one or two bytes per symbol, an
    /// escape and the byte for any other byte. The parse is optimal, not greedy (the longest
    /// symbol first): a dynamic program over the positions, from the end, keeps for each the
    /// cheapest coding of the rest (ties: the longer symbol first). On `Data/` that codes the
    /// alternate names 5.4% smaller than the greedy parse with the same table. Training still
    /// parses greedily: it grows symbols from concatenations of the longest ones, which an
    /// optimal parse would split.
    /// - Complexity: O(8 × *n*) table lookups for *n* bytes.
    @_spi(Testing) public func encoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        let count = text.count
        var codes: [UInt8] = []
        text.withUnsafeBufferPointer { text in
            // cost[i]: bytes to code text[i...]; symbolAt[i]: the symbol that starts it (-1:
            // an escape), lengthAt[i] its length.
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count + 1) { scratch in
                let cost = UnsafeMutableBufferPointer(rebasing: scratch[0 ... count])
                let symbolAt = UnsafeMutableBufferPointer(rebasing: scratch[(count + 1)...])
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { lengthAt in
                    cost[count] = 0
                    for offset in stride(from: count - 1, through: 0, by: -1) {
                        var best = 2 + cost[offset + 1]
                        var (length, symbol): (UInt8, Int32) = (1, -1)
                        let remaining = count - offset
                        var window: UInt64 = 0
                        for index in 0 ..< min(remaining, 8) { window |= UInt64(text[offset + index]) << UInt64(8 * index) }
                        // Shortest first, so that ties go to the longer symbol.
                        func consider(_ number: Int, length candidate: Int) {
                            let total = (number < singleByteCodeCount ? 1 : 2) + cost[offset + candidate]
                            if total <= best { (best, length, symbol) = (total, UInt8(candidate), Int32(number)) }
                        }
                        let single = shortSymbols[Int(text[offset])]
                        if single >= 0 { consider(Int(single), length: 1) }
                        if remaining >= 2 {
                            let pairIndex = Int(text[offset]) << 8 | Int(text[offset + 1])
                            let pair = shortSymbols[256 + pairIndex]
                            if pair >= 0 { consider(Int(pair), length: 2) }
                            var lengths = remaining < 3 ? 0
                                : longLengthsStartingWith[Self.longLengthIndex(text[offset], text[offset + 1], text[offset + 2])]
                            if remaining < 8 { lengths &= (1 << UInt16(remaining + 1)) - 1 }
                            while lengths != 0 {
                                let candidate = lengths.trailingZeroBitCount
                                lengths &= lengths - 1
                                let mask: UInt64 = candidate == 8 ? .max : (1 << UInt64(8 * candidate)) - 1
                                if let number = lookup.number(of: window & mask, length: candidate) { consider(number, length: candidate) }
                            }
                        }
                        cost[offset] = best
                        symbolAt[offset] = symbol
                        lengthAt[offset] = length
                    }
                    codes.reserveCapacity(Int(cost[0]))
                    var offset = 0
                    while offset < count {
                        let symbol = Int(symbolAt[offset])
                        if symbol < 0 {
                            codes.append(Self.escape)
                            codes.append(text[offset])
                        } else if symbol < singleByteCodeCount {
                            codes.append(UInt8(symbol))
                        } else {
                            let rest = symbol - singleByteCodeCount
                            codes.append(UInt8(singleByteCodeCount + rest >> 8))
                            codes.append(UInt8(truncatingIfNeeded: rest))
                        }
                        offset += Int(lengthAt[offset])
                    }
                }
            }
        }
        return codes
    }

    @inline(__always)
    private static func longLengthIndex(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int {
        Int(first) << 12 | Int(second) << 4 | Int(third & 15)
    }

    /// The `SYMB` section: symbol count, one-byte code count, each symbol in 8 bytes (zero
    /// padded), then each symbol's length.
    var sectionBytes: [UInt8] {
        var section = ByteBuffer(capacity: 8 + 9 * symbols.count)
        section.appendUInt32(UInt32(symbols.count))
        section.appendUInt32(UInt32(singleByteCodeCount))
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
