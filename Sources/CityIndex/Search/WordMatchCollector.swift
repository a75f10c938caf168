// WordMatchCollector.swift: the cities of a word-trie node, each once, in search order.

/// Turns the postings a word search matched into one entry per city, in search order, with
/// the lowest matching name slot (WORDS.md §3: the primary name, else the first matching
/// alternate).
enum WordMatchCollector {
    /// - Complexity: O(*p* log *p*) for *p* postings, or O(*p* + *n*) with an *n*-city scratch
    ///   array when *p* is a large share of *n*.
    static func entries(of match: TrieMatch, contents: IndexContents) -> [CityMatches.Entry] {
        let postings = match.entries
        var entries: [CityMatches.Entry] = []
        entries.reserveCapacity(match.cityCount)
        if postings.count * 8 < contents.cityCount {
            var packed: [UInt64] = []
            packed.reserveCapacity(postings.count)
            for position in postings {
                guard let (rank, slot) = contents.postings.posting(at: position) else { continue }
                packed.append(UInt64(rank) << 16 | UInt64(slot))
            }
            packed.sort()
            var previousRank = -1
            for value in packed where Int(value >> 16) != previousRank {
                previousRank = Int(value >> 16)
                entries.append(CityMatches.Entry(rank: UInt32(previousRank), slot: UInt16(truncatingIfNeeded: value)))
            }
        } else {
            var lowestSlot = [UInt32](repeating: .max, count: contents.cityCount)
            for position in postings {
                guard let (rank, slot) = contents.postings.posting(at: position) else { continue }
                lowestSlot[rank] = min(lowestSlot[rank], UInt32(slot))
            }
            for (rank, slot) in lowestSlot.enumerated() where slot != .max {
                entries.append(CityMatches.Entry(rank: UInt32(rank), slot: UInt16(slot)))
            }
        }
        return entries
    }
}
