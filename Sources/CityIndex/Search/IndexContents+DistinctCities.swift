// IndexContents+DistinctCities.swift: how many distinct cities some trie entries hold.

extension IndexContents {
    /// Entry totals up to which `distinctCityCount(of:matching:)` sorts the cities' ranks
    /// instead of marking them in a bit set of every city. A typo-tolerant search's outermost
    /// matches hold about 120 entries at the median (one-edit queries on `Data/`): sorting
    /// them takes about a microsecond, where the bit set (29 KB there) costs an allocation
    /// and its zeroing on every search.
    static let sortedDistinctCityLimit = 1_024

    /// How many distinct cities the entries `ranges` of the name trie (`.prefix`: entry *i* is
    /// a rank through `PORD`) or of the word trie (`.words`: a posting) hold. Entries a damaged
    /// file makes invalid (a position outside the postings, a rank outside the cities) count
    /// for nothing.
    /// - Complexity: O(*p* log *p*) for *p* entries up to `sortedDistinctCityLimit`, else
    ///   O(*p* + *n* / 64) for *n* cities.
    func distinctCityCount<Ranges: Collection<Range<Int>>>(of ranges: Ranges, matching: MatchMode) -> Int {
        let total = ranges.reduce(0) { $0 + $1.count }
        func cityRank(ofEntry position: Int) -> Int? {
            let rank = matching == .prefix ? rank(ofNodeEntry: position) : postings.posting(at: position)?.rank
            return rank.flatMap { $0 >= 0 && $0 < cityCount ? $0 : nil }
        }
        if total <= Self.sortedDistinctCityLimit {
            var ranks: [Int] = []
            ranks.reserveCapacity(total)
            for range in ranges {
                for position in range where position >= 0 && (matching == .prefix || position < postings.postingCount) {
                    if let rank = cityRank(ofEntry: position) { ranks.append(rank) }
                }
            }
            ranks.sort()
            var count = 0
            var previous = -1
            for rank in ranks where rank != previous {
                count += 1
                previous = rank
            }
            return count
        }
        var seen = [UInt64](repeating: 0, count: (cityCount + 63) / 64)
        return seen.withUnsafeMutableBufferPointer { seen in
            var count = 0
            for range in ranges {
                if matching == .words {
                    count += postings.markCities(ofPostings: range, in: seen)
                    continue
                }
                for position in range {
                    guard let rank = cityRank(ofEntry: position) else { continue }
                    if seen.insertCity(rank: rank) { count += 1 }
                }
            }
            return count
        }
    }
}
