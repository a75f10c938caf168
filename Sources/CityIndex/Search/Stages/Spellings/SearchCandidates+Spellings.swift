// SearchCandidates+Spellings.swift: stage 9 of a search, the spelling of each matched alternate closest to the query as typed (WORDS.md §3).

/// The letters of a query that choose among an alternate name's spellings (WORDS.md §3): its
/// letters outside ASCII (`letters(of:)`), in order. Empty for a query without any, whose
/// matches keep the first spelling.
package struct TypedLetters: Sendable {
    let scalars: [Unicode.Scalar]

    init(query: String) {
        // Most queries are ASCII: nothing to read, nothing allocated.
        scalars = query.utf8.contains(where: { $0 >= 0x80 }) ? Self.letters(of: query).filter { !$0.isASCII } : []
    }

    /// The letters of `text` (alphabetic scalars), each by its lowercase mapping, in order: what
    /// tells spellings of one word key apart ("münchen" from "munchen"), marks and punctuation
    /// left out. O(length).
    package static func letters(of text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter(\.properties.isAlphabetic).flatMap { $0.properties.lowercaseMapping.unicodeScalars }
    }

    /// How many of the letters (counted as often as typed) `name` (UTF-8) has. O(length of
    /// the name × letters).
    func count(in name: UnsafeRawBufferPointer) -> Int {
        let nameLetters = Self.letters(of: String(decoding: name, as: UTF8.self))
        return scalars.count { nameLetters.contains($0) }
    }
}

extension SearchCandidates {
    /// The matches, each alternate-name match reporting the city's spelling of that name
    /// closest to the query as typed (WORDS.md §3): of the alternates after the matched one
    /// with its word key and machine-made look (the spellings the index keeps, FORMAT.md §7.5),
    /// the first with more of `typed`'s letters than it, if any. The order, the weights and the
    /// count are unchanged; a highlight is of the spelling reported.
    /// - Complexity: O(the alternates' bytes) of each city matched by an alternate whose name
    ///   lacks a letter of `typed`, for a query with letters outside ASCII; O(length of the
    ///   query) for another.
    func reportingSpellings(closestTo typed: TypedLetters) -> SearchCandidates {
        guard !typed.scalars.isEmpty, case .entries(var held) = storage, held.contains(where: { $0.slot > 0 }) else { return self }
        let table = contents.foldTable
        var key: [UInt8] = [], otherKey: [UInt8] = [], starts: [Int] = []
        for index in held.indices where held[index].slot > 0 {
            let rank = Int(held[index].rank), matched = Int(held[index].slot)
            var (bestSlot, bestCount) = (matched, 0)
            let looksMachineMade = contents.withName(ofRank: rank, slot: matched) { name in
                WordKey.encode(utf8: name, with: table, into: &key, wordStarts: &starts)
                bestCount = typed.count(in: name)
                return AlternateDemotion.looksMachineMade(name, foldTable: table)
            }
            // A spelling with every letter typed ("москва" in "Москва") has no better one.
            guard bestCount < typed.scalars.count else { continue }
            contents.alternates.forEach(ofRank: rank) { slot, coded in
                guard slot > matched else { return true }
                contents.withDecoded(coded) { name in
                    WordKey.encode(utf8: name, with: table, into: &otherKey, wordStarts: &starts)
                    guard otherKey == key, AlternateDemotion.looksMachineMade(name, foldTable: table) == looksMachineMade else { return }
                    let count = typed.count(in: name)
                    if count > bestCount { (bestSlot, bestCount) = (slot, count) }
                }
                return true
            }
            held[index].slot = UInt16(bestSlot)
        }
        return holding(held, totalCount: totalCount)
    }
}
