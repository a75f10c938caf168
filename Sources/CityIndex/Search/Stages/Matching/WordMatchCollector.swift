// WordMatchCollector.swift: the cities of a word-trie node, each once, in search order.

/// Turns the postings a word search matched into one entry per city, in search order, with
/// its best match (WORDS.md §3: the primary name, else the first alternate whose match is
/// not demoted, else the first matching alternate).
enum WordMatchCollector {
    /// - Complexity: O(*p* log *p*) for *p* postings, or O(*p* + *n*) with an *n*-city scratch
    ///   array when *p* is a large share of *n*.
    static func entries(of match: TrieMatch, contents: IndexContents) -> [SearchCandidates.Entry] {
        let postings = match.entries
        var entries: [SearchCandidates.Entry] = []
        entries.reserveCapacity(min(match.cityCount, contents.cityCount))
        if postings.count * 8 < contents.cityCount {
            var packed: [UInt64] = []
            packed.reserveCapacity(postings.count)
            for position in postings {
                guard let (rank, slot, isDemoted) = contents.postings.posting(at: position) else { continue }
                packed.append(UInt64(rank) << 17 | (isDemoted ? 1 << 16 : 0) | UInt64(UInt16(clamping: slot)))
            }
            packed.sort()
            var previousRank = -1
            for value in packed where Int(value >> 17) != previousRank {
                previousRank = Int(value >> 17)
                entries.append(SearchCandidates.Entry(rank: UInt32(previousRank), slot: UInt16(truncatingIfNeeded: value),
                                                 isDemoted: value & (1 << 16) != 0))
            }
        } else {
            // Per city: demoted << 16 | slot, the smallest being the best.
            var best = [UInt32](repeating: .max, count: contents.cityCount)
            for position in postings {
                guard let (rank, slot, isDemoted) = contents.postings.posting(at: position) else { continue }
                best[rank] = min(best[rank], (isDemoted ? 1 << 16 : 0) | UInt32(UInt16(clamping: slot)))
            }
            for (rank, value) in best.enumerated() where value != .max {
                entries.append(SearchCandidates.Entry(rank: UInt32(rank), slot: UInt16(truncatingIfNeeded: value), isDemoted: value >> 16 != 0))
            }
        }
        return entries
    }

    /// The first `k` of `entries(of:contents:)`: the `k` cities of smallest rank among the
    /// postings, each with its best match, in rank order. One pass over the postings that keeps
    /// at most `k` (sorted, one per rank); a posting whose rank is past the `k`-th kept is
    /// skipped after one comparison, which is most of them once `k` are kept. No sort and no
    /// array of all postings: the build computes `WALP` with it for every listed node.
    /// - Complexity: O(*p* × *k*) in the worst case (ranks decreasing), about O(*p*) in practice.
    static func firstEntries(_ k: Int, of match: TrieMatch, contents: IndexContents) -> [SearchCandidates.Entry] {
        guard k > 0 else { return [] }
        // rank << 17 | demoted << 16 | slot: the smallest value of a rank is its best match.
        var kept: [UInt64] = []
        kept.reserveCapacity(k + 1)
        for position in match.entries {
            guard let (rank, slot, isDemoted) = contents.postings.posting(at: position) else { continue }
            let value = UInt64(rank) << 17 | (isDemoted ? 1 << 16 : 0) | UInt64(UInt16(clamping: slot))
            if kept.count == k, value >> 17 > kept[k - 1] >> 17 { continue }
            var index = kept.count
            while index > 0, kept[index - 1] >> 17 >= value >> 17 { index -= 1 }
            if index < kept.count, kept[index] >> 17 == value >> 17 {
                kept[index] = min(kept[index], value)
                continue
            }
            kept.insert(value, at: index)
            if kept.count > k { kept.removeLast() }
        }
        return kept.map { value in
            SearchCandidates.Entry(rank: UInt32(value >> 17), slot: UInt16(truncatingIfNeeded: value), isDemoted: value & (1 << 16) != 0)
        }
    }
}
