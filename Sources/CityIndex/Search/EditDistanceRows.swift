// EditDistanceRows.swift: the Levenshtein automaton of a typo-tolerant trie walk (WORDS.md §6).

/// The edit distances (Damerau–Levenshtein, optimal string alignment) between every prefix
/// of a fixed query and a text that grows and shrinks at its end, one UTF-8 byte at a time:
/// the state of a depth-first walk down a trie, as a Levenshtein automaton in its dynamic
/// programming form (one row per text scalar; Schulz and Mihov's automaton is the same
/// function of the row, tabulated).
///
/// Row *j* holds `D[j][i]`, the distance between the first *j* scalars of the text and the
/// first *i* of the query, capped at `budget + 1` (one byte per cell). The text matches as a
/// prefix search when some row's last cell is at most the budget; a subtree can be pruned
/// when its row's smallest cell exceeds the budget, since row minima never decrease as the
/// text grows (each cell comes from a cell of an earlier row plus 0 or 1).
///
/// Bytes are decoded into scalars as they arrive; an ill-formed sequence (only in a damaged
/// file) counts as one scalar U+FFFD per byte that cannot continue it, so every byte sequence
/// is accepted and depth stays bounded: rows beyond `query.count + budget + 1` are dead.
///
/// Invariant: `rowCount ≥ 1`; `rows` holds `rowCount × (query.count + 1)` cells.
/// - Complexity: O(*n*) per scalar for a query of *n* scalars; nothing allocated after `init`
///   except when the text outgrows the rows reserved (`n + budget + 2`).
struct EditDistanceRows {
    /// A position the text can be cut back to.
    struct Mark {
        fileprivate var rowCount: Int
        fileprivate var partialScalar: UInt32
        fileprivate var partialRemaining: Int
    }

    let query: [UInt32]
    let budget: Int
    private let width: Int
    private var rows: [UInt8]
    /// The text's scalars; `textScalars[j - 1]` made row *j*.
    private var textScalars: [UInt32]
    private(set) var rowCount = 1
    private var partialScalar: UInt32 = 0
    private var partialRemaining = 0

    init(query: [UInt32], budget: Int) {
        self.query = query
        self.budget = budget
        width = query.count + 1
        let cap = UInt8(clamping: budget + 1)
        rows = (0 ..< width).map { UInt8(clamping: min($0, Int(cap))) }
        rows.reserveCapacity(width * (query.count + budget + 2))
        textScalars = []
        textScalars.reserveCapacity(query.count + budget + 2)
    }

    var mark: Mark { Mark(rowCount: rowCount, partialScalar: partialScalar, partialRemaining: partialRemaining) }

    /// Cuts the text back to where it was at `mark`.
    mutating func reset(to mark: Mark) {
        rowCount = mark.rowCount
        rows.removeLast(rows.count - rowCount * width)
        textScalars.removeLast(textScalars.count - (rowCount - 1))
        partialScalar = mark.partialScalar
        partialRemaining = mark.partialRemaining
    }

    /// The distance between the whole query and the whole text (capped at `budget + 1`).
    var distance: Int { Int(rows[rowCount * width - 1]) }

    /// Whether no continuation of the text can come within the budget of the query.
    var isDead: Bool { smallestCell > budget }

    /// The smallest distance between a prefix of the query and the text: no continuation of
    /// the text is closer to the whole query than this.
    var smallestCell: Int {
        var smallest = UInt8.max
        for index in (rowCount - 1) * width ..< rowCount * width where rows[index] < smallest { smallest = rows[index] }
        return Int(smallest)
    }

    /// Whether the text ends on a scalar boundary (its last byte completed a scalar).
    var isAtScalarBoundary: Bool { partialRemaining == 0 }

    /// Appends one byte of the text. Returns true when it completed a scalar (and so a row).
    @discardableResult
    mutating func append(_ byte: UInt8) -> Bool {
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
        return false
    }

    /// Computes row `rowCount` for text scalar `scalar`.
    private mutating func appendRow(_ scalar: UInt32) {
        let cap = UInt8(clamping: budget + 1)
        let previous = (rowCount - 1) * width
        let beforePrevious = (rowCount - 2) * width
        let previousScalar = textScalars.last
        rows.append(min(rows[previous] + 1, cap))
        for index in 1 ..< width {
            let current = rowCount * width + index
            let same = query[index - 1] == scalar
            var cell = min(rows[previous + index - 1] + (same ? 0 : 1), rows[previous + index] + 1, rows[current - 1] + 1)
            if index >= 2, rowCount >= 2, !same, let previousScalar,
               query[index - 1] == previousScalar, query[index - 2] == scalar {
                cell = min(cell, rows[beforePrevious + index - 2] + 1)
            }
            rows.append(min(cell, cap))
        }
        textScalars.append(scalar)
        rowCount += 1
    }
}
