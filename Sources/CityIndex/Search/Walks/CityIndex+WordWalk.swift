// CityIndex+WordWalk.swift: the exact walk of the word trie with a query's word key (WORDS.md §2).

extension CityIndex {
    /// Walks the `WNOD` trie with a query's word key (WORDS.md §2, `SearchPlan.key(of:matching:foldTable:)`). Returns
    /// the postings that match, or `nil` when none do. O(*m*) plus the word key of one stored
    /// name when the blind walk skipped bytes (FORMAT.md §6.1), or of each posting of the bucket
    /// it reached (at most the section's bucket capacity): the key matches the postings below a
    /// node exactly when it starts a suffix key of the name of the node's first posting. Counts
    /// the walk in `meter`.
    func wordMatch(forKey key: [UInt8], meter: SearchMeter? = nil) throws(IndexFileError) -> TrieMatch? {
        var walk = TrieWalk(nodes: contents.wordTrie.nodes, node: contents.wordTrie.root)
        defer { meter?.countWalk(visiting: walk.visitedNodeCount) }
        let foldTable = contents.foldTable
        var matched = true
        for byte in key where matched { matched = walk.advance(by: byte) }
        if let error = walk.error { throw error }
        guard matched else { return nil }
        let match = contents.wordTrie.matches(of: walk) { [contents] position in
            guard let (rank, slot, _) = contents.postings.posting(at: position) else { return false }
            return contents.withName(ofRank: rank, slot: slot) { WordKey.name($0, hasSuffixKeyStartingWith: key, table: foldTable) }
        }
        return match
    }
}
