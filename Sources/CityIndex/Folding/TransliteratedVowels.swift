// TransliteratedVowels.swift: "ae", "oe", "ue", "aa" typed for ä, ö, ü, å, ø (WORDS.md §8).

/// German and Scandinavian transliterations a word-matching query may use: "muenchen" for
/// München, "koeln" for Köln, "goeteborg" for Göteborg, "aarhus" for Århus.
///
/// Folding (SEARCH.md §1) turns ä, ö, ü, å and ø into a, o, u, a and o, so a name's key has the
/// single vowel. A query key containing one of the digraphs `ae`, `oe`, `ue`, `aa` is also
/// searched with every one of them replaced by its single vowel, each replacement counting as
/// one edit of the match (so that a plain match of the letters as typed comes first); the key
/// as typed is searched too (most "ae"/"ue" are plain letters: "Buenos Aires", "Queens").
enum TransliteratedVowels {
    /// The key with each digraph replaced by its vowel and how many were, or `nil` when it
    /// has none. O(key length).
    static func collapsed(_ key: [UInt8]) -> (key: [UInt8], count: Int)? {
        var result: [UInt8] = []
        result.reserveCapacity(key.count)
        var index = 0
        var count = 0
        while index < key.count {
            let byte = key[index]
            if index + 1 < key.count {
                let next = key[index + 1]
                let isDigraph = (byte == UInt8(ascii: "a") || byte == UInt8(ascii: "o") || byte == UInt8(ascii: "u")) && next == UInt8(ascii: "e")
                    || byte == UInt8(ascii: "a") && next == UInt8(ascii: "a")
                if isDigraph {
                    result.append(byte)
                    index += 2
                    count += 1
                    continue
                }
            }
            result.append(byte)
            index += 1
        }
        return count > 0 ? (result, count) : nil
    }
}
