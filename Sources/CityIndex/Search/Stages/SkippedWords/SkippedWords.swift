// SkippedWords.swift: a query's words in order among a name's words, others between (WORDS.md §9).

/// The rule of skipped-word matching (WORDS.md §9) for one query word key: "rio janeiro"
/// matches `Rio de Janeiro` and "santo oeste" `Santo Domingo Oeste`.
///
/// A suffix key (a name's word key from one of its words on, WORDS.md §1) matches when its
/// first word is the query's first word and the query's other words follow in order, each
/// equal to a later word of the key, any words between them; the last query word only has to
/// start its word, unless the query ended with a separator (§2: then it is a whole word with
/// another word after it). A name matches when one of its suffix keys does.
///
/// Invariant: at least two words, none empty.
struct SkippedWords {
    /// The query's words: word-key bytes without spaces.
    let words: [[UInt8]]
    /// Whether the last word is whole and must be followed by another (a trailing separator).
    let lastIsWhole: Bool

    /// Search with skipped words only when the other matches of a query (WORDS.md §2–§8) are
    /// fewer than this many cities: it is a fallback for the queries that find little.
    static let fallbackThreshold = 20
    /// Skip the fallback when even the least common query word is in the names of more cities
    /// than this (each candidate city costs reading and word-keying its names).
    static let maximumCandidateCities = 4_096

    /// The words of a query word key (WORDS.md §2), or `nil` when it has fewer than two.
    init?(queryKey key: [UInt8]) {
        let pieces = key.split(separator: 0x20, omittingEmptySubsequences: true).map(Array.init)
        guard pieces.count >= 2 else { return nil }
        words = pieces
        lastIsWhole = key.last == 0x20
    }

    /// The `WNOD` keys whose postings each matching name has (one per query word): the word and
    /// a space for a word another word must follow, the last word alone when it is a prefix.
    var trieKeys: [[UInt8]] {
        words.indices.map { index in
            index < words.count - 1 || lastIsWhole ? words[index] + [0x20] : words[index]
        }
    }

    /// How many bytes of `suffixKey` the query covers when the suffix key matches (from its
    /// start to the end of the last query word's letters in it), else `nil`.
    /// - Complexity: O(length of the suffix key); no allocation.
    func matchedLength<Key: RandomAccessCollection<UInt8>>(inSuffixKey suffixKey: Key) -> Int? where Key.Index == Int {
        var position = suffixKey.startIndex
        let end = suffixKey.endIndex
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            // The query's first word must be the key's first word; the others any later word.
            while true {
                guard position < end else { return nil }
                var wordEnd = position
                while wordEnd < end && suffixKey[wordEnd] != 0x20 { wordEnd += 1 }
                let length = wordEnd - position
                let prefixOnly = isLast && !lastIsWhole
                let fits = prefixOnly ? length >= word.count : length == word.count && wordEnd < end
                if fits && suffixKey[position ..< position + word.count].elementsEqual(word) {
                    if isLast { return position + word.count - suffixKey.startIndex }
                    position = wordEnd + 1
                    break
                }
                guard index > 0 else { return nil }
                position = wordEnd + 1
            }
        }
        return nil
    }

    /// The index of the first word of the name whose word key `names` holds (loaded by
    /// `NameKeyBuffer.loadWordKey`) whose suffix key matches, or `nil` when the name does not
    /// match. O(length of the key × words).
    func firstMatchingWord(in names: NameKeyBuffer) -> Int? {
        let key = names.key
        return (0 ..< names.wordCount).first { matchedLength(inSuffixKey: key[names.wordStarts[$0]...]) != nil }
    }
}
