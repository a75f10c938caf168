// EditDistanceRows.swift: the Levenshtein automaton of a typo-tolerant trie walk (WORDS.md §6).

/// The edit distances (Damerau–Levenshtein, optimal string alignment) between every prefix
/// of a fixed query and a text that grows and shrinks at its end, one UTF-8 byte at a time:
/// the state of a depth-first walk down a trie, as a Levenshtein automaton in its dynamic
/// programming form (one row per text scalar; Schulz and Mihov's automaton is the same
/// function of the row, tabulated).
///
/// Row *j* stands for `D[j][i]`, the distance between the first *j* scalars of the text and
/// the first *i* of the query, capped at `budget + 1`. Only the band `|i − j| ≤ budget` can be
/// within the budget (every cell outside it is at least `|i − j|`), and only whether a cell is
/// at most *d* matters, for each *d* ≤ budget: so a row is `budget + 1` bit sets over its band
/// (bit *b* of set *d* is cell `j − budget + b` being at most *d*), each at most 7 bits wide,
/// one byte lane each of a 32-bit word. A row follows from the two before it in a few word
/// operations for every lane at once, whatever the budget (bit-parallel, as Wu and Manber's
/// `agrep` and Hyyrö's banded Damerau variant of Myers' algorithm compute theirs), instead of
/// a loop over its cells.
///
/// The text matches as a prefix search when some row's last cell is at most the budget; a
/// subtree can be pruned when its row's smallest cell exceeds the budget, since row minima
/// never decrease as the text grows (each cell comes from a cell of an earlier row plus 0 or 1).
///
/// Bytes are decoded into scalars as they arrive; an ill-formed sequence (only in a damaged
/// file) counts as one scalar U+FFFD per byte that cannot continue it, so every byte sequence
/// is accepted and depth stays bounded: rows beyond `query.count + budget + 1` are dead.
///
/// A class over unchecked memory: a walk computes a row for every byte it feeds, so the rows
/// are read and written without bounds or uniqueness checks (every index is inside
/// `rowCapacity` rows by construction). One instance serves one walk on one thread.
///
/// Invariant: `0 ≤ budget ≤ 3` (`TypoTolerance.largestBudget`, to which `init` clamps it: a
/// band of `2 × budget + 1` bits fits a lane); `1 ≤ rowCount ≤ rowCapacity`; rows
/// `0 ..< rowCount` of `rowMasks`, `matchVectors` and `rowMinimums` are valid; lane *d* of a
/// row's mask is empty for *d* > budget, and a lane's bits beyond the query's end (cell *i* >
/// `query.count`) are clear.
/// - Complexity: O(1) per scalar (O(*budget*) for a scalar outside ASCII or a query of more
///   than `63 − budget` scalars); nothing allocated after `init` except when the text outgrows
///   the rows reserved (`n + budget + 2`), which only a dead walk would do.
final class EditDistanceRows {
    /// A position the text can be cut back to.
    struct Mark {
        fileprivate var rowCount: Int
        fileprivate var partialScalar: UInt32
        fileprivate var partialRemaining: Int
        fileprivate var partialIsForeign: Bool
    }

    let query: [UInt32]
    /// `query.count`, read on every row.
    private let length: Int
    /// `query`'s scalars in unchecked memory, for `matchVector(of:row:)`.
    private var queryScalars: UnsafeMutablePointer<UInt32>
    let budget: Int
    /// The script classes of the query's scalars (bit *c* for class *c*, `scriptClass`).
    private let queryClasses: UInt64
    private let cap: UInt8
    /// Each row's band as `budget + 1` byte lanes: bit *b* of lane *d* of row *j* is set when
    /// `D[j][j − budget + b] ≤ d`.
    private var rowMasks: UnsafeMutablePointer<UInt32>
    /// Each row's match vector: bit *b* of row *j*'s is set when query scalar
    /// `j − budget + b` (1-based) is the text scalar that made the row (0 for row 0).
    private var matchVectors: UnsafeMutablePointer<UInt8>
    /// The smallest cell of each row's band.
    private var rowMinimums: UnsafeMutablePointer<UInt8>
    /// For each ASCII scalar *c*: bit `i + budget` set when query scalar *i* (1-based) is *c*,
    /// so that row *j*'s match vector is this shifted right by *j*. Empty when the query is
    /// longer than `63 − budget` scalars (then `matchVector` compares the band's scalars).
    private var asciiPositions: UnsafeMutablePointer<UInt64>
    /// The one allocation the five buffers above lie in (`Buffers`): an automaton is made
    /// for every typo-tolerant highlight, where five allocations cost more than the rows.
    private var storage: UnsafeMutableRawPointer
    private let asciiPositionsApply: Bool
    /// Every lane a row can use: lanes `0 ... budget`, 7 bits each.
    private let laneBits: UInt32
    /// Bit *i* set when the ASCII scalar *i* is in the query.
    private let queryASCII: (UInt64, UInt64)
    /// How many rows the buffers hold.
    private var rowCapacity: Int
    private(set) var rowCount = 1
    private var partialScalar: UInt32 = 0
    private var partialRemaining = 0
    /// Whether the scalar being read is one an edit cannot bring in (`canBringIn`).
    private var partialIsForeign = false

    /// Each lane of a 32-bit word holding `byte`.
    @inline(__always)
    private static func everyLane(_ byte: UInt8) -> UInt32 { UInt32(byte) &* 0x0101_0101 }

    /// An automaton for `query` within `budget` edits, clamped to `0 ... 3` (every caller
    /// passes a `TypoTolerance` budget, at most `largestBudget`).
    init(query: [UInt32], budget: Int) {
        let budget = min(max(budget, 0), TypoTolerance.largestBudget)
        self.query = query
        length = query.count
        self.budget = budget
        queryClasses = query.reduce(0) { classes, scalar in
            Self.scriptClass(scalar).map { classes | 1 << UInt64($0) } ?? classes
        }
        cap = UInt8(budget + 1)
        laneBits = UInt32(truncatingIfNeeded: (UInt64(1) << (8 * (budget + 1))) - 1) & 0x7F7F_7F7F
        rowCapacity = query.count + budget + 2
        let buffers = Buffers(queryCount: query.count, rowCapacity: rowCapacity)
        (storage, asciiPositions, queryScalars, rowMasks, matchVectors, rowMinimums) = buffers.allocate()
        queryScalars.update(from: query, count: query.count)
        asciiPositionsApply = query.count + budget < 64
        if asciiPositionsApply {
            for (offset, scalar) in query.enumerated() where scalar < 128 {
                asciiPositions[Int(scalar)] |= 1 << UInt64(offset + 1 + budget)
            }
        }
        queryASCII = query.reduce((0, 0)) { mask, scalar in
            scalar < 64 ? (mask.0 | 1 << UInt64(scalar), mask.1) : scalar < 128 ? (mask.0, mask.1 | 1 << UInt64(scalar - 64)) : mask
        }
        // Row 0: D[0][i] = i, so lane d holds cells 0 ... d (bits budget ... budget + d).
        var first: UInt32 = 0
        for edits in 0 ... budget {
            for position in 0 ... min(edits, query.count) { first |= 1 << UInt32(8 * edits + budget + position) }
        }
        rowMasks[0] = first
    }

    /// Whether appending ASCII byte `byte` would leave the smallest cell at `bound` or more,
    /// known without computing its row: a scalar the query does not have matches no cell, so
    /// its row's smallest cell is this row's plus the cost of bringing it in. O(1).
    @inline(__always)
    func asciiCannotStayBelow(_ bound: Int, byte: UInt8) -> Bool {
        guard partialRemaining == 0 else { return false }
        let inQuery = byte < 64 ? queryASCII.0 & (1 << UInt64(byte)) != 0 : queryASCII.1 & (1 << UInt64(byte - 64)) != 0
        guard !inQuery else { return false }
        return !canBringIn(UInt32(byte)) || smallestCell + 1 >= bound
    }

    var mark: Mark {
        Mark(rowCount: rowCount, partialScalar: partialScalar, partialRemaining: partialRemaining, partialIsForeign: partialIsForeign)
    }

    deinit { storage.deallocate() }

    /// Where the buffers lie in `storage`: the ASCII positions (128 words), the query's
    /// scalars, then the rows' masks, match vectors and minimums, each zeroed.
    private struct Buffers {
        let queryCount: Int
        let rowCapacity: Int
        var scalarsOffset: Int { 128 * 8 }
        var masksOffset: Int { scalarsOffset + 4 * max(queryCount, 1) }
        var vectorsOffset: Int { masksOffset + 4 * rowCapacity }
        var minimumsOffset: Int { vectorsOffset + rowCapacity }
        var byteCount: Int { minimumsOffset + rowCapacity }

        func allocate() -> (UnsafeMutableRawPointer, UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt32>,
                            UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) {
            let storage = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 8)
            storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            return (storage, storage.bindMemory(to: UInt64.self, capacity: 128),
                    (storage + scalarsOffset).bindMemory(to: UInt32.self, capacity: max(queryCount, 1)),
                    (storage + masksOffset).bindMemory(to: UInt32.self, capacity: rowCapacity),
                    (storage + vectorsOffset).bindMemory(to: UInt8.self, capacity: rowCapacity),
                    (storage + minimumsOffset).bindMemory(to: UInt8.self, capacity: rowCapacity))
        }
    }

    /// Cuts the text back to where it was at `mark`.
    func reset(to mark: Mark) {
        rowCount = mark.rowCount
        partialScalar = mark.partialScalar
        partialRemaining = mark.partialRemaining
        partialIsForeign = mark.partialIsForeign
    }

    /// The distance between the whole query and the whole text (capped at `budget + 1`):
    /// the first lane whose bit for cell `query.count` is set.
    var distance: Int {
        let row = rowCount - 1
        let bit = length &- row &+ budget
        guard bit >= 0 && bit <= 2 * budget else { return Int(cap) }
        let lanes = (rowMasks[row] >> UInt32(bit)) & 0x0101_0101
        return lanes == 0 ? Int(cap) : lanes.trailingZeroBitCount >> 3
    }

    /// The query positions *i* < `query.count` whose cell in the last row is `value`: bit
    /// *b* of `mask` is position `first + b`. O(1), nothing allocated.
    func positions(withCell value: Int) -> (first: Int, mask: UInt8) {
        let row = rowCount - 1
        let first = row - budget
        guard (0 ... budget).contains(value) else { return (first, 0) }
        let masks = rowMasks[row]
        let atMost = UInt8(truncatingIfNeeded: masks >> UInt32(8 * value))
        let below = value == 0 ? 0 : UInt8(truncatingIfNeeded: masks >> UInt32(8 * (value - 1)))
        // Not the cell of the whole query (bit `query.count - first`).
        let end = length - first
        let beforeEnd: UInt8 = end <= 0 ? 0 : end >= 8 ? 0xFF : UInt8(1 << end) - 1
        return (first, atMost & ~below & beforeEnd)
    }

    /// Whether no continuation of the text can come within the budget of the query.
    var isDead: Bool { smallestCell > budget }

    /// The smallest distance between a prefix of the query and the text: no continuation of
    /// the text is closer to the whole query than this.
    var smallestCell: Int {
        let row = rowCount - 1
        return row == 0 ? 0 : Int(rowMinimums[row])
    }

    /// Whether the only way to continue the text within `edits` of a query prefix is to
    /// continue with the query's own scalars from a position whose cell is `edits`: every
    /// cell of the last row is at least `edits`, and so is every cell of the row before (a
    /// swap of two scalars reaches back to it, for one edit).
    func hasNoEditLeft(below bound: Int) -> Bool {
        let row = rowCount - 1
        guard row >= 1, Int(rowMinimums[row]) == bound - 1 else { return false }
        return Int(rowMinimums[row - 1]) >= bound - 1
    }

    /// A lower bound of `smallestCell` once the scalar being read is complete: inside a
    /// scalar that no query scalar starts like, the next row has no match, so its smallest
    /// cell is one more than this row's, or over the budget for a wide scalar, which no edit
    /// brings in. (This prunes the subtrees of scripts the query does not use at their lead
    /// byte, not 64 or 4,096 children later.)
    var smallestCellOfNextScalar: Int {
        guard partialRemaining > 0 else { return smallestCell }
        let shift = UInt32(6 * partialRemaining)
        if query.contains(where: { $0 >> shift == partialScalar }) { return smallestCell }
        return partialIsForeign ? budget + 1 : smallestCell + 1
    }

    /// The script class of a scalar for typo tolerance (WORDS.md §6): 0 for U+0000–U+024F
    /// (ASCII, Latin-1, Latin Extended-A and B: what folded Latin names are made of), then
    /// one class per 128 scalars up to U+07FF (Greek, Cyrillic, Armenian, Hebrew, Arabic,
    /// Syriac, Thaana…), and `nil` from U+0800 on (Indic scripts, Thai, CJK, kana, Hangul…).
    @inline(__always)
    static func scriptClass(_ scalar: UInt32) -> Int? {
        scalar < 0x250 ? 0 : scalar < 0x800 ? Int(scalar >> 7) : nil
    }

    /// Whether an edit can bring `scalar` in (insert it, or put it in place of a query
    /// scalar): only when its script class is one of the query's. A typo stays within the
    /// script being typed, and the walk does not visit the thousands of first letters of
    /// other scripts for every query. Deleting or swapping any scalar is an edit.
    @inline(__always)
    private func canBringIn(_ scalar: UInt32) -> Bool {
        guard let scriptClass = Self.scriptClass(scalar) else { return false }
        return queryClasses & (1 << UInt64(scriptClass)) != 0
    }

    /// Whether the text ends on a scalar boundary (its last byte completed a scalar).
    var isAtScalarBoundary: Bool { partialRemaining == 0 }

    /// Appends one byte of the text. Returns true when it completed a scalar (and so a row).
    @discardableResult
    func append(_ byte: UInt8) -> Bool {
        if partialRemaining > 0 {
            if byte & 0xC0 == 0x80 {
                partialScalar = partialScalar << 6 | UInt32(byte & 0x3F)
                partialRemaining -= 1
                if partialRemaining == 0 { appendRow(partialScalar) }
                return partialRemaining == 0
            }
            // An interrupted sequence: what was read is one replacement scalar.
            partialRemaining = 0
            appendRow(0xFFFD)
        }
        switch byte {
        case 0 ..< 0x80: appendRow(UInt32(byte)); return true
        case 0xC2 ..< 0xE0: partialScalar = UInt32(byte & 0x1F); partialRemaining = 1
        case 0xE0 ..< 0xF0: partialScalar = UInt32(byte & 0x0F); partialRemaining = 2
        case 0xF0 ..< 0xF5: partialScalar = UInt32(byte & 0x07); partialRemaining = 3
        default: appendRow(0xFFFD); return true
        }
        // A 2-byte lead byte decides the scalar's class; 3- and 4-byte scalars have none.
        partialIsForeign = partialRemaining > 1 || !canBringIn(partialScalar << 6)
        return false
    }

    /// The match vector of text scalar `scalar` at row `row`: bit *b* set when query scalar
    /// `row − budget + b` (1-based, within the query) is `scalar`, for *b* < 8. O(1) for ASCII
    /// in a query of at most `63 − budget` scalars, O(*budget*) otherwise.
    @inline(__always)
    private func matchVector(of scalar: UInt32, row: Int) -> UInt8 {
        if scalar < 128 && asciiPositionsApply {
            return row < 64 ? UInt8(truncatingIfNeeded: asciiPositions[Int(scalar)] &>> UInt64(row)) : 0
        }
        var vector: UInt8 = 0
        let first = row - budget
        // Bits of query scalars 1 ... length only (none for a row past the query and budget).
        var bit = max(0, 1 - first)
        let end = min(8, length - first + 1)
        while bit < end {
            if queryScalars[first + bit - 1] == scalar { vector |= 1 << UInt8(bit) }
            bit += 1
        }
        return vector
    }

    /// Computes row `rowCount` for text scalar `scalar` from the two rows before it, every
    /// lane at once (with *R* the row above, *P* the one above it, *E* the match vector):
    /// lane *d* is `R[d] & E` (a match on the diagonal), `R[d − 1]` and `R[d − 1] >> 1` (a
    /// replacement, an insertion: only for a scalar an edit can bring in), `P[d − 1]` where a
    /// swap applies, then `lane[d − 1] << 1` chained (deleting query scalars), and the bits of
    /// cells past the query's end cleared. O(1) word operations, whatever the budget.
    private func appendRow(_ scalar: UInt32) {
        let row = rowCount
        // Only a walk that went on feeding a dead text outgrows the rows.
        if row == rowCapacity { grow() }
        let above = rowMasks[row &- 1]
        let match = matchVector(of: scalar, row: row)
        var next = above & Self.everyLane(match)
        if canBringIn(scalar) {
            let raised = above &<< 8
            next |= raised | (raised &>> 1) & 0x7F7F_7F7F
        }
        // A swap: query scalar i − 1 is this scalar and query scalar i the one before.
        let swapped = (match &<< 1) & (matchVectors[row &- 1] &>> 1)
        if swapped != 0 && row >= 2 {
            next |= (rowMasks[row &- 2] &<< 8) & Self.everyLane(swapped)
        }
        // Deletions chained: lane d |= lane d − 1 << 1, then lane d |= lane d − 2 << 2.
        next |= ((next &<< 1) & 0x7F7F_7F7F) &<< 8
        next |= ((next &<< 2) & 0x7F7F_7F7F) &<< 16
        // Cells past the query's end (bit n − row + budget and up) are not cells.
        let cellsLeft = length &- row &+ budget &+ 1
        let inBand: UInt8 = cellsLeft <= 0 ? 0 : cellsLeft >= 8 ? 0xFF : UInt8(truncatingIfNeeded: 1 &<< cellsLeft) &- 1
        next &= Self.everyLane(inBand) & laneBits
        rowMasks[row] = next
        matchVectors[row] = match
        rowMinimums[row] = next == 0 ? cap : UInt8(truncatingIfNeeded: next.trailingZeroBitCount &>> 3)
        rowCount = row &+ 1
    }

    /// Doubles the rows held, keeping the rows computed (and the tables).
    private func grow() {
        let old = Buffers(queryCount: length, rowCapacity: rowCapacity)
        let new = Buffers(queryCount: length, rowCapacity: 2 * rowCapacity)
        let (newStorage, positions, scalars, masks, vectors, minimums) = new.allocate()
        newStorage.copyMemory(from: storage, byteCount: old.masksOffset)
        masks.update(from: rowMasks, count: rowCapacity)
        vectors.update(from: matchVectors, count: rowCapacity)
        minimums.update(from: rowMinimums, count: rowCapacity)
        storage.deallocate()
        (storage, asciiPositions, queryScalars, rowMasks, matchVectors, rowMinimums) = (newStorage, positions, scalars, masks, vectors, minimums)
        rowCapacity = new.rowCapacity
    }
}
