// Initialisms.swift: "la", "sf", "nyc" find the city they stand for first (WORDS.md §12).

/// The initialism rule of population-ordered word matching (WORDS.md §12).
///
/// An alternate name is an **initialism** of its city when it is 2 to 5 capital letters A–Z
/// ("LA", "SF", "NYC") that spell the initials of the first words of the city's primary name
/// ("Los Angeles", "San Francisco", "New York City"; "NY" too). A query whose word key is that
/// alternate's (2 to 5 letters a–z, nothing else) weighs the city's match at ten times its
/// population (`populationFactor`), as if the query had named the city outright. So "la" gives
/// Los Angeles (3.9 million) before Lagos (15.4 million) by a prefix of its own name, while a
/// capitalized code that is not the city's initials (an airport's "LOS" on Lagos) stays an
/// ordinary alternate: "los" keeps Los Angeles first.
///
/// The query's exact key is the first run of postings below the query's node (`WPST` is
/// sorted by key, each key's run in population order, FORMAT.md §7.7), so the initialisms
/// of the heaviest cities come first in it: only the first `scannedPostingCount` postings are
/// read, which bounds the work whatever the index holds.
enum Initialisms {
    /// How many postings of the query's node are read to find initialisms.
    static let scannedPostingCount = 8
    /// An initialism's match weighs the city's population times this.
    static let populationFactor = 10.0
    /// The lengths of keys that can be initialisms.
    static let keyLengths = 2 ... 5

    /// Whether `key` (a query's word key) can be an initialism: 2 to 5 letters a–z.
    static func canBeInitialism(_ key: [UInt8]) -> Bool {
        keyLengths.contains(key.count) && key.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
    }

    /// Whether `alternate` (UTF-8) is `key` in capitals A–Z. O(length of the key).
    static func isCapitals(_ alternate: UnsafeRawBufferPointer, of key: [UInt8]) -> Bool {
        guard alternate.count == key.count else { return false }
        for (byte, keyByte) in zip(alternate, key) where byte != keyByte - 0x20 { return false }
        return true
    }

    /// Whether `key` spells the initials of the first words of `primary` (UTF-8), which has at
    /// least as many words. O(length of the name).
    static func spellsInitials(_ key: [UInt8], of primary: UnsafeRawBufferPointer, foldTable: FoldTable) -> Bool {
        var matched = 0
        var spells = true
        WordKey.encode(utf8: primary, with: foldTable) { byte, startsWord in
            guard startsWord, spells, matched < key.count else { return }
            if byte == key[matched] { matched += 1 } else { spells = false }
        }
        return spells && matched == key.count
    }
}

extension CityIndex {
    /// The matches of word key `key` by an initialism (`Initialisms`), marked as such, most
    /// populous first; empty when `key` cannot be one. `match` is the key's walk when the
    /// caller has it. O(`Initialisms.scannedPostingCount`) primary names read (in place), and
    /// the alternate of those whose initials the key spells.
    func initialismEntries(forKey key: [UInt8], in match: TrieMatch? = nil, meter: SearchMeter? = nil) throws(IndexFileError) -> [SearchCandidates.Entry] {
        guard Initialisms.canBeInitialism(key) else { return [] }
        var walked = match
        if walked == nil { walked = try wordMatch(forKey: key, meter: meter) }
        guard let match = walked else { return [] }
        var found: [SearchCandidates.Entry] = []
        for position in match.entries.prefix(Initialisms.scannedPostingCount) {
            // An initialism is an alternate matched on its first word, with capitals: never demoted.
            guard let (rank, slot, isDemoted) = contents.postings.posting(at: position), slot > 0, !isDemoted,
                  Initialisms.spellsInitials(key, of: contents.primaryName(ofRank: rank).buffer, foldTable: contents.foldTable),
                  contents.withName(ofRank: rank, slot: slot, { Initialisms.isCapitals($0, of: key) }),
                  !found.contains(where: { $0.rank == UInt32(rank) }) else { continue }
            found.append(SearchCandidates.Entry(rank: UInt32(rank), slot: UInt16(slot), isInitialism: true))
        }
        return found.sorted { contents.population(ofRank: Int($0.rank)) > contents.population(ofRank: Int($1.rank)) }
    }
}
