// BoundedEditDistance.swift: whether two short strings are within a few edits of each other.

/// The optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
/// two adjacent letters, as WORDS.md §6 counts edits) between strings of scalars, when it is
/// at most `bound`. One value compares one string against many (`distance(to:bound:)`),
/// reusing its rows: O(*n* · *m*) at most per comparison, stopping as soon as a row passes the
/// bound, allocating nothing after `init`.
struct BoundedEditDistance {
    private let query: [UInt32]
    private var rows: [Int]

    init(from query: [UInt32]) {
        self.query = query
        rows = []
    }

    /// The distance from the query to `other`, or `nil` when it is more than `bound`.
    mutating func distance(to other: [UInt32], bound: Int) -> Int? {
        let (a, b) = (query, other)
        guard abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= bound ? max(a.count, b.count) : nil }
        let width = b.count + 1
        if rows.count < 3 * width { rows = [Int](repeating: 0, count: 3 * width) }
        return rows.withUnsafeMutableBufferPointer { rows in
            // Three rows in turn: the one before the previous, the previous, the current.
            var (older, previous, current) = (0, width, 2 * width)
            for j in 0 ... b.count { rows[previous + j] = j }
            for i in 1 ... a.count {
                rows[current] = i
                var rowMinimum = i
                for j in 1 ... b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, rows[older + j - 2] + 1) }
                    rows[current + j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                guard rowMinimum <= bound else { return nil }
                (older, previous, current) = (previous, current, older)
            }
            let distance = rows[previous + b.count]
            return distance <= bound ? distance : nil
        }
    }
}
