// CityIndex+Verification.swift: verify(), the whole-file check, and the order it runs in.

extension CityIndex {
    /// Checks the whole file: the checksum over every byte (FORMAT.md §8), the fold table,
    /// every record, the id index, the alternate names, and every node of both tries: that
    /// the `NODE` keys are exactly the folded names of the records they cover, in search
    /// order, and the `WNOD` postings exactly the word suffix keys of every name, with right
    /// counts and population order, and the top lists are what a search finds (invariants
    /// I1–I14 of FORMAT.md §9). Run it once after
    /// downloading or caching an index: searching a file that passes cannot meet damage, and
    /// every search answers exactly as SEARCH.md and WORDS.md say.
    ///
    /// Each group of invariants has its own file in this folder; the error thrown names the
    /// invariant found broken and where.
    ///
    /// - Complexity: O(file size + total name length × log *f* + postings × trie depth).
    ///   Allocates a few bytes per city and one bit per byte of the trie sections.
    public func verify() throws(IndexFileError) {
        try verifyChecksum()
        try contents.foldTable.validateEntries()
        try contents.verifyRecords()
        try contents.verifyIDExceptions()
        try contents.verifyIDIndex()
        try contents.verifyAlternateNames()
        try contents.verifyPlaces()
        try contents.verifySpatialIndex()
        let listedNodes = try contents.verifyNameTrie()
        let listedWordNodes = try contents.verifyWordTrie()
        try contents.verifyTopLists(of: .nodes, listedNodes: listedNodes)
        try contents.verifyTopLists(of: .wordNodes, listedNodes: listedWordNodes)
        try contents.verifyTopLists(of: .wordNodes, order: .alphabetical, listedNodes: listedWordNodes)
    }

    /// Checks only the checksum over every byte (FORMAT.md §8): the cheap check that a file
    /// which passed `verify()` once is still the same bytes (a cache, before it is trusted).
    /// - Complexity: O(file size), no allocation.
    public func verifyChecksum() throws(IndexFileError) {
        let computed = CRC32.indexChecksum(of: contents.storage.bytes.buffer)
        guard computed == contents.storedChecksum else {
            throw .checksumMismatch(stored: contents.storedChecksum, computed: computed)
        }
    }
}
