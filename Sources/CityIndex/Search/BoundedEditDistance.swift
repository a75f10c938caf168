// BoundedEditDistance.swift: whether two short strings are within a few edits of each other.

/// The optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
/// two adjacent letters, as WORDS.md §6 counts edits) between two strings of scalars, when it
/// is at most `bound`; `nil` when it is more. O(*n* · *m*) at most, stopping as soon as a row
/// passes the bound.
enum BoundedEditDistance {
    static func distance(_ a: [UInt32], _ b: [UInt32], bound: Int) -> Int? {
        guard abs(a.count - b.count) <= bound else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= bound ? max(a.count, b.count) : nil }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0 ... b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1 ... a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1 ... b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previousPrevious[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            guard rowMinimum <= bound else { return nil }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count] <= bound ? previous[b.count] : nil
    }
}
