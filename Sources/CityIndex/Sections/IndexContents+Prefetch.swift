// IndexContents+Prefetch.swift: loading the names a search is about to read, all at once.

extension IndexContents {
    /// Starts loading what reading the keys of word-trie entries `entries` (their postings'
    /// names, `NameKeyBuffer.loadWordKey`) will touch, so that their cache misses overlap
    /// instead of coming one after another. (Only `WNOD` has buckets: `NODE`'s bucket
    /// capacity is 1, checked at open.)
    ///
    /// A name is found through a chain of reads (posting, then the name's record or the
    /// city's start of alternates, then the text), so this runs in two rounds: the first
    /// starts loading each entry's record or start, the second reads them (by then in flight
    /// together) and starts loading each name's first bytes. Hints only: nothing is returned,
    /// nothing can fault, and entries that a damaged file makes invalid are skipped.
    /// - Complexity: O(*k*) for *k* entries (callers pass at most a bucket: 64).
    func prefetchWordKeys(of entries: Range<Int>) {
        for entry in entries where entry < postings.postingCount {
            guard let (rank, slot, _) = postings.posting(at: entry) else { continue }
            if slot == 0 { records.prefetch(rank: rank) } else { alternates.prefetchStart(ofRank: rank) }
        }
        for entry in entries where entry < postings.postingCount {
            guard let (rank, slot, _) = postings.posting(at: entry) else { continue }
            if slot == 0 { names.prefetch(at: records.nameLocation(ofRank: rank)) } else { alternates.prefetchText(ofRank: rank, slot: slot) }
        }
    }
}
