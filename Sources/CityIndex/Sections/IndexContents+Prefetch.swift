// IndexContents+Prefetch.swift: loading what a search is about to read, all at once.

extension IndexContents {
    /// Starts loading what reading the keys of word-trie entries `entries` (their postings'
    /// names, `NameKeyBuffer.loadWordKey`) will touch, so that their cache misses overlap
    /// instead of coming one after another. (Only `WNOD` has buckets: `NODE`'s bucket
    /// capacity is 1, checked at open.)
    ///
    /// A name is found through a chain of reads (posting, then the name's record or the
    /// city's start of alternates, then the text), so this runs in three rounds: the first
    /// starts loading the postings, the second reads them (by then in flight together) and
    /// starts loading each entry's record or start, the third reads those and starts loading
    /// each name's first bytes. Hints only: nothing is returned, nothing can fault, and
    /// entries that a damaged file makes invalid are skipped.
    /// - Complexity: O(*k*) for *k* entries (a bucket's, at most 64, or a batch of exact
    ///   continuations' keys).
    func prefetchWordKeys<Entries: Collection<Int>>(of entries: Entries) {
        for entry in entries { postings.prefetch(entry) }
        prefetchNames(of: entries) { entry in
            guard entry < postings.postingCount, let (rank, slot, _) = postings.posting(at: entry) else { return nil }
            return (rank, slot)
        }
    }

    /// Starts loading name `slot` of the city at `rank` for each of `items` (`nil`: none), in
    /// the last two rounds `prefetchWordKeys(of:)` describes: records or alternate-name starts
    /// first, then the names' first bytes. `name` must give ranks in `0 ..< cityCount`.
    @inline(__always)
    private func prefetchNames<Items: Collection>(of items: Items, _ name: (Items.Element) -> (rank: Int, slot: Int)?) {
        for item in items {
            guard let (rank, slot) = name(item) else { continue }
            if slot == 0 { records.prefetch(rank: rank) } else { alternates.prefetchStart(ofRank: rank) }
        }
        for item in items {
            guard let (rank, slot) = name(item) else { continue }
            if slot == 0 { names.prefetch(at: records.nameLocation(ofRank: rank)) } else { alternates.prefetchText(ofRank: rank, slot: slot) }
        }
    }

    /// Starts loading the posting of entry `position` of `trie` when it is `WNOD` (a hint;
    /// `NODE`'s entries are ranks, or `PORD` positions read by binary search). O(1).
    @inline(__always)
    func prefetchEntry(_ position: Int, in trie: TrieSection) {
        if trie.bucketCapacity > 1 { postings.prefetch(position) }
    }

    /// Starts loading the names of `entries` (a search's first results, whose highlights and
    /// names the caller reads next): their records or alternate-name starts, then their text.
    func prefetchNames(of entries: ArraySlice<SearchCandidates.Entry>) {
        prefetchNames(of: entries) { entry in Int(entry.rank) < cityCount ? (Int(entry.rank), Int(entry.slot)) : nil }
    }

    /// Starts loading the records of the first 20 of `ranks` (a default search's contiguous
    /// result) and the first 256 bytes of names from the first one's (names of consecutive ranks
    /// lie mostly one after the other): what the caller reads next. One record read. O(1).
    func prefetchFirstMatches(_ ranks: Range<Int>) {
        guard !ranks.isEmpty else { return }
        let last = min(ranks.upperBound, ranks.lowerBound + FormatConstants.topListLength) - 1
        records.prefetch(ranks: ranks.lowerBound ... last)
        let first = records.nameLocation(ofRank: ranks.lowerBound)
        for line in 0 ..< 4 { names.prefetch(at: (first.offset + 64 * line, 0)) }
    }
}
