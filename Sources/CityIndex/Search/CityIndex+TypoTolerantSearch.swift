// CityIndex+TypoTolerantSearch.swift: searches that forgive typing mistakes (WORDS.md §6).

extension CityIndex {
    /// The folded key a search of `matching` walks its trie with, as scalars: the folded query
    /// (SEARCH.md §2) for `.prefix`, its word key (WORDS.md §2) for `.words`.
    func queryKeyScalars(_ query: String, matching: MatchMode) -> [UInt32] {
        var bytes: [UInt8] = []
        let foldTable = contents.foldTable
        switch matching {
        case .prefix:
            for scalar in query.scalarsAfterLeadingWhiteSpace {
                _ = foldTable.withFoldedUTF8(of: scalar) { folded in
                    bytes.append(contentsOf: folded)
                    return true
                }
            }
        case .words:
            var encoder = WordKeyEncoder()
            for scalar in query.unicodeScalars {
                _ = foldTable.withFoldedUTF8(of: scalar) { folded in
                    encoder.feed(foldedUTF8: folded) { byte, _ in
                        bytes.append(byte)
                        return true
                    }
                }
            }
            _ = encoder.finishQuery { byte in
                bytes.append(byte)
                return true
            }
        }
        return bytes.withUnsafeBytes { Array(UTF8Decoding.scalars(of: $0).map(\.value)) }
    }

    /// A typo-tolerant search (WORDS.md §6) with a budget of `budget` ≥ 1 edits, for a query
    /// whose key is `key` (non-empty).
    ///
    /// - Population order: a best-first search from every match at once, each weighed by
    ///   its edits (`PopulationOrderKey`).
    /// - Alphabetical order: fewer edits first, then search order; every matching entry is
    ///   read and sorted.
    /// - The total counts distinct cities: the outermost matches are disjoint subtrees, whose
    ///   entries are counted (`NODE`) or whose postings' cities are marked in a bit set
    ///   (`WNOD`, where a city can be in several).
    ///
    /// - Complexity: the walk (`TypoTolerantTrieWalk`), then O(*p*) for the *p* entries of
    ///   its matches in `.words` (the count) or in alphabetical order (plus sorting them), and
    ///   the best-first search for population order.
    func typoTolerantSearch(key: [UInt32], budget: Int, matching: MatchMode, order: ResultOrder,
                            limit: Int) throws(IndexFileError) -> CityMatches {
        let contents = contents
        let trie = matching == .prefix ? contents.trie : contents.wordTrie
        var walk = TypoTolerantTrieWalk(contents: contents, matching: matching, query: key, budget: budget)
        try walk.run()
        let matches = walk.matches
        let query = MatchQuery.typoTolerant(matching: matching, key: key)
        func entry(_ position: Int) -> (rank: Int, slot: Int)? {
            matching == .prefix ? contents.rank(ofNodeEntry: position).map { ($0, 0) } : contents.postings.posting(at: position)
        }

        // The total: distinct cities of the outermost matches.
        let outermost = matches.filter(\.isOutermost)
        var totalCount = 0
        if matching == .prefix || outermost.count <= 1 {
            totalCount = outermost.reduce(0) { $0 + $1.match.cityCount }
        } else {
            var seen = [UInt64](repeating: 0, count: (contents.cityCount + 63) / 64)
            for match in outermost {
                for position in match.match.entries {
                    guard let (rank, _) = contents.postings.posting(at: position) else { continue }
                    let (word, bit) = (rank / 64, UInt64(1) << (rank % 64))
                    if seen[word] & bit == 0 {
                        seen[word] |= bit
                        totalCount += 1
                    }
                }
            }
        }

        switch order {
        case .population:
            let lists = matching == .prefix ? contents.nodeTopLists : contents.wordTopLists
            let entries = try RankedSearch.top(limit, of: matches.map { ($0.match, $0.edits) }, in: trie, contents: contents,
                                               lists: lists, entry: entry)
            return CityMatches(contents: contents, storage: .entries(entries), query: query, totalCount: totalCount)
        case .alphabetical:
            // Every entry with its edits; per city the fewest edits, then the lowest slot.
            var all: [CityMatches.Entry] = []
            for match in matches {
                for position in match.match.entries {
                    // In `NODE`, entry i is the city of rank i in search order.
                    let (rank, slot) = matching == .prefix ? (position, 0) : (contents.postings.posting(at: position) ?? (-1, 0))
                    guard rank >= 0 else { continue }
                    all.append(CityMatches.Entry(rank: UInt32(rank), slot: UInt16(clamping: slot),
                                                 edits: UInt8(clamping: match.edits)))
                }
            }
            all.sort { ($0.rank, $0.edits, $0.slot) < ($1.rank, $1.edits, $1.slot) }
            var best: [CityMatches.Entry] = []
            for entry in all where best.last?.rank != entry.rank { best.append(entry) }
            best.sort { ($0.edits, $0.rank) < ($1.edits, $1.rank) }
            return CityMatches(contents: contents, storage: .entries(Array(best.prefix(limit))), query: query,
                               totalCount: totalCount)
        }
    }
}
