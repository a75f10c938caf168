// WordAbbreviations.swift: abbreviations a word-matching query may use (WORDS.md §7).

/// The abbreviations of place names that word matching expands at query time ("st louis"
/// also searches "saint louis" and "sankt louis"; "ft worth" "fort worth").
///
/// Rule: a query word that is a whole abbreviation *and is followed by another word or a
/// separator* is replaced by each of its expansions, the word as typed being kept too; the
/// last word is never expanded, since it may be the start of a longer word ("st" →
/// "Stockholm"). Keys are word keys (folded, separators as single spaces), so "St." and "st"
/// are the same word. At most `maximumVariantCount` variants, the key as typed first.
enum WordAbbreviations {
    /// Abbreviation → expansions, in word-key bytes (WORDS.md §7 lists them).
    static let table: [String: [String]] = [
        "st": ["saint", "sankt"], "ste": ["sainte"], "sta": ["santa"], "sto": ["santo"],
        "ft": ["fort"], "mt": ["mount", "mont"], "pt": ["port", "point"],
        "pto": ["puerto"], "pta": ["punta"],
    ]

    /// The most variants of one query: each abbreviated word multiplies them.
    static let maximumVariantCount = 8

    /// The variants of a query's word key: the key as typed, then every combination of the
    /// expansions of its abbreviated words (words followed by a space), up to
    /// `maximumVariantCount`. O(variants × key length).
    static func variants(of key: [UInt8]) -> [[UInt8]] {
        var variants: [[UInt8]] = [[]]
        var wordStart = 0
        for index in 0 ... key.count {
            guard index == key.count || key[index] == 0x20 else { continue }
            let word = key[wordStart ..< index]
            let isFollowed = index < key.count
            var choices = [Array(word)]
            if isFollowed, (2 ... 3).contains(word.count), let expansions = table[String(decoding: word, as: UTF8.self)] {
                choices += expansions.map { Array($0.utf8) }
            }
            var next: [[UInt8]] = []
            for variant in variants {
                for choice in choices where next.count < maximumVariantCount {
                    next.append(variant + choice + (isFollowed ? [0x20] : []))
                }
            }
            variants = next
            wordStart = index + 1
        }
        return variants
    }
}
