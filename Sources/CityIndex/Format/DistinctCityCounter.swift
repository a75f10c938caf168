// DistinctCityCounter.swift: distinct cities of entry ranges, for the builder and verify().

/// Counts the distinct cities of entry ranges that end where the entries added so far end
/// (offline distinct counting: a Fenwick tree marks each city's last entry).
/// - Complexity: O(log *n*) per entry and per range.
package struct DistinctCityCounter {
    private var tree: [Int]
    private var lastEntryOfCity: [Int]

    package init(entryCount: Int, cityCount: Int) {
        tree = [Int](repeating: 0, count: entryCount + 1)
        lastEntryOfCity = [Int](repeating: -1, count: cityCount)
    }

    /// Adds the next entry (entries are added in increasing order).
    package mutating func add(entry: Int, city: Int) {
        let previous = lastEntryOfCity[city]
        if previous >= 0 { update(previous, by: -1) }
        update(entry, by: 1)
        lastEntryOfCity[city] = entry
    }

    /// Distinct cities among `range`, whose upper bound is the end of the entries added.
    package func cityCount(in range: Range<Int>) -> Int { prefixSum(range.upperBound) - prefixSum(range.lowerBound) }

    private mutating func update(_ index: Int, by delta: Int) {
        var position = index + 1
        while position < tree.count {
            tree[position] += delta
            position += position & -position
        }
    }

    private func prefixSum(_ count: Int) -> Int {
        var sum = 0
        var position = count
        while position > 0 {
            sum += tree[position]
            position -= position & -position
        }
        return sum
    }
}
