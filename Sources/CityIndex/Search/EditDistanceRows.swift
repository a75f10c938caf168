// EditDistanceRows.swift: the Levenshtein automaton of a typo-tolerant trie walk (WORDS.md §6).

/// The edit distances (Damerau–Levenshtein, optimal string alignment) between every prefix
/// of a fixed query and a text that grows and shrinks at its end, one UTF-8 byte at a time:
/// the state of a depth-first walk down a trie, as a Levenshtein automaton in its dynamic
/// programming form (one row per text scalar; Schulz and Mihov's automaton is the same
/// function of the row, tabulated).
///
/// Row *j* holds `D[j][i]`, the distance between the first *j* scalars of the text and the
/// first *i* of the query, capped at `budget + 1`. Only the band `|i − j| ≤ budget` is
/// computed: every cell outside it is at least `|i − j|`, so over the budget, and reads as
/// the cap. The text matches as a prefix search when some row's last cell is at most the
/// budget; a subtree can be pruned when its row's smallest cell exceeds the budget, since
/// row minima never decrease as the text grows (each cell comes from a cell of an earlier
/// row plus 0 or 1).
///
/// Bytes are decoded into scalars as they arrive; an ill-formed sequence (only in a damaged
/// file) counts as one scalar U+FFFD per byte that cannot continue it, so every byte sequence
/// is accepted and depth stays bounded: rows beyond `query.count + budget + 1` are dead.
///
/// A class over one allocation of unchecked memory: a walk computes a row for every byte it
/// feeds, so the rows are read and written without bounds or uniqueness checks (every index
/// is inside `rowCapacity` rows by construction). One instance serves one walk on one thread.
///
/// Invariant: `1 ≤ rowCount ≤ rowCapacity`; `cells` holds `rowCapacity × (query.count + 1)`
/// cells, of which row *j*'s band is valid for *j* < `rowCount`, and so is the cell just
/// above its band (the cap, when inside the row), which the next row reads.
/// - Complexity: O(*budget*) per scalar; nothing allocated after `init` except when the text
///   outgrows the rows reserved (`n + budget + 2`), which only a dead walk would do.
final class EditDistanceRows {
    /// A position the text can be cut back to.
    struct Mark {
        fileprivate var rowCount: Int
        fileprivate var partialScalar: UInt32
        fileprivate var partialRemaining: Int
        fileprivate var partialIsForeign: Bool
    }

    let query: [UInt32]
    /// `query`'s scalars in unchecked memory, for `appendRow`.
    private let queryScalars: UnsafeMutablePointer<UInt32>
    let budget: Int
    /// The script classes of the query's scalars (bit *c* for class *c*, `scriptClass`).
    private let queryClasses: UInt64
    private let width: Int
    private let cap: UInt8
    private var cells: UnsafeMutablePointer<UInt8>
    /// The smallest cell of each row's band.
    private var rowMinimums: UnsafeMutablePointer<UInt8>
    /// Bit *b* set when the ASCII scalar *b* is in the query.
    private let queryASCII: (UInt64, UInt64)
    /// The text's scalars; `textScalars[j - 1]` made row *j*.
    private var textScalars: UnsafeMutablePointer<UInt32>
    /// How many rows the buffers hold.
    private var rowCapacity: Int
    private(set) var rowCount = 1
    private var partialScalar: UInt32 = 0
    private var partialRemaining = 0
    /// Whether the scalar being read is one an edit cannot bring in (`canBringIn`).
    private var partialIsForeign = false

    init(query: [UInt32], budget: Int) {
        self.query = query
        queryScalars = .allocate(capacity: max(query.count, 1))
        queryScalars.initialize(from: query, count: query.count)
        self.budget = budget
        queryClasses = query.reduce(0) { classes, scalar in
            Self.scriptClass(scalar).map { classes | 1 << UInt64($0) } ?? classes
        }
        width = query.count + 1
        cap = UInt8(clamping: budget + 1)
        rowCapacity = query.count + budget + 2
        cells = .allocate(capacity: width * rowCapacity)
        cells.initialize(repeating: 0, count: width * rowCapacity)
        for index in 0 ..< width { cells[index] = UInt8(clamping: min(index, Int(cap))) }
        textScalars = .allocate(capacity: rowCapacity)
        textScalars.initialize(repeating: 0, count: rowCapacity)
        rowMinimums = .allocate(capacity: rowCapacity)
        rowMinimums.initialize(repeating: 0, count: rowCapacity)
        queryASCII = query.reduce((0, 0)) { mask, scalar in
            scalar < 64 ? (mask.0 | 1 << UInt64(scalar), mask.1) : scalar < 128 ? (mask.0, mask.1 | 1 << UInt64(scalar - 64)) : mask
        }
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

    deinit {
        queryScalars.deallocate()
        cells.deallocate()
        textScalars.deallocate()
        rowMinimums.deallocate()
    }

    /// Cuts the text back to where it was at `mark`.
    func reset(to mark: Mark) {
        rowCount = mark.rowCount
        partialScalar = mark.partialScalar
        partialRemaining = mark.partialRemaining
        partialIsForeign = mark.partialIsForeign
    }

    /// The computed band of row `row`: the query positions within the budget of `row`.
    @inline(__always)
    private func band(ofRow row: Int) -> Range<Int> {
        let low = max(0, row - budget)
        return low ..< max(low, min(width, row + budget + 1))
    }

    /// Cell `index` of row `row`: its value inside the band, the cap outside.
    @inline(__always)
    private func cell(row: Int, _ index: Int) -> UInt8 {
        guard index >= row - budget && index <= row + budget && index >= 0 && index < width else { return cap }
        return cells[row * width + index]
    }

    /// The distance between the whole query and the whole text (capped at `budget + 1`).
    var distance: Int { Int(cell(row: rowCount - 1, width - 1)) }

    /// Replaces `positions` with the query positions *i* < `query.count` whose cell in the
    /// last row is `value`, in increasing order (a buffer the caller reuses: no allocation
    /// once it has grown).
    func positions(withCell value: Int, into positions: inout [Int]) {
        positions.removeAll(keepingCapacity: true)
        let row = rowCount - 1
        for position in band(ofRow: row) where position < width - 1 && Int(cells[row * width + position]) == value {
            positions.append(position)
        }
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

    /// Computes row `rowCount` (its band) for text scalar `scalar`, and sets the cell just
    /// above the band to the cap, so that the next row reads every cell it needs without a
    /// bounds test: with row *j*'s band `max(0, j − k) … min(n, j + k)` for budget *k*, row
    /// *j* + 1 reads row *j* from its band's first cell less one (that band's first cell, or
    /// none at index 0) to its last plus one, and row *j* − 1 (a swap) two positions back
    /// (inside that row's band). O(*k*): about 15 instructions a cell.
    private func appendRow(_ scalar: UInt32) {
        let row = rowCount
        // Only a walk that went on feeding a dead text outgrows the rows.
        if row == rowCapacity { grow() }
        // Bringing the text scalar in (inserting it, or replacing a query scalar with it).
        let bringIn: UInt8 = canBringIn(scalar) ? 1 : cap
        // (No swap before the second row: no query scalar equals this.)
        let previousScalar: UInt32 = row >= 2 ? textScalars[row - 2] : UInt32.max
        let (width, budget, cap, cells, query) = (width, budget, cap, cells, queryScalars)
        let low = max(0, row - budget), high = min(width - 1, row + budget)
        let current = row * width, above = current - width
        var smallest = cap
        var left = cap
        var index = low
        if low == 0 {
            // The first column (a band that starts at 0 is never empty): no diagonal, no left.
            left = min(cells[above] &+ bringIn, cap)
            cells[current] = left
            smallest = left
            index = 1
        }
        while index <= high {
            let wanted = query[index - 1]
            let same = wanted == scalar
            var value = min(cells[above + index - 1] &+ (same ? 0 : bringIn), cells[above + index] &+ bringIn, left &+ 1)
            if !same && wanted == previousScalar && index >= 2 && query[index - 2] == scalar {
                value = min(value, cells[above - width + index - 2] &+ 1)
            }
            value = min(value, cap)
            cells[current + index] = value
            left = value
            smallest = min(smallest, value)
            index += 1
        }
        // The cell above the band, which the next row reads as its last cell's "above".
        if high + 1 < width { cells[current + high + 1] = cap }
        rowMinimums[row] = smallest
        textScalars[row - 1] = scalar
        rowCount += 1
    }

    /// Doubles the rows held, keeping the rows computed.
    private func grow() {
        let larger = 2 * rowCapacity
        let largerCells = UnsafeMutablePointer<UInt8>.allocate(capacity: width * larger)
        largerCells.initialize(repeating: 0, count: width * larger)
        largerCells.update(from: cells, count: width * rowCapacity)
        cells.deallocate()
        cells = largerCells
        let largerScalars = UnsafeMutablePointer<UInt32>.allocate(capacity: larger)
        largerScalars.initialize(repeating: 0, count: larger)
        largerScalars.update(from: textScalars, count: rowCapacity)
        textScalars.deallocate()
        textScalars = largerScalars
        let largerMinimums = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        largerMinimums.initialize(repeating: 0, count: larger)
        largerMinimums.update(from: rowMinimums, count: rowCapacity)
        rowMinimums.deallocate()
        rowMinimums = largerMinimums
        rowCapacity = larger
    }
}
