// AlternateDemotion.swift: which alternate-name matches population order demotes (WORDS.md §5).

/// The rule that marks a posting of an alternate name **demoted** (FORMAT.md §7.7), shared by
/// `build-index`, which sets the mark, and `verify()`, which checks it. A demoted match weighs
/// a tenth of an alternate-name match (`PopulationOrderKey`).
///
/// A match of alternate name *a* on its word *w* is demoted when *w* is not *a*'s first word
/// ("york" in "New York Van Java", a Dutch name of Jakarta), or when *a* looks machine-made:
/// every letter is Latin (below U+0250, or U+1E00–U+1EFF) and either none is a capital
/// ("mogadisho", "mwgdysw": transliterations of non-Latin names, which GeoNames lists in
/// lowercase by the hundred thousand) or there are 3 or more and none folds to a vowel (a, e,
/// i, o, u, y: "Mqdyshw", "BGW", "Krkwk"). A primary name is never demoted. The rule uses only
/// the name: the input has no language or source for alternates.
package enum AlternateDemotion {
    /// Whether a match of alternate name `name` (UTF-8) on its word `wordIndex` (0: the first)
    /// is demoted. O(length of the name).
    package static func isDemoted(alternateName name: UnsafeRawBufferPointer, wordIndex: Int, foldTable: FoldTable) -> Bool {
        wordIndex > 0 || looksMachineMade(name, foldTable: foldTable)
    }

    /// Latin letters only, and no capital or (from 3 letters) no vowel.
    package static func looksMachineMade(_ name: UnsafeRawBufferPointer, foldTable: FoldTable) -> Bool {
        var letterCount = 0
        var hasCapital = false
        var hasVowel = false
        var position = 0
        while position < name.count {
            let byte = name[position]
            if byte < 0x80 {
                // ASCII, the common case, without Unicode property lookups: the alphabetic
                // scalars are the letters, the capitals A–Z, and a letter folds to its lowercase.
                position += 1
                let lowercase = byte | 0x20
                guard lowercase >= UInt8(ascii: "a"), lowercase <= UInt8(ascii: "z") else { continue }
                letterCount += 1
                if byte < UInt8(ascii: "a") { hasCapital = true }
                if !hasVowel { hasVowel = Self.isASCIIVowel(lowercase) }
                continue
            }
            let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
            position += length
            guard scalar.properties.isAlphabetic else { continue }
            let value = scalar.value
            guard value < 0x250 || (0x1E00 ... 0x1EFF).contains(value) else { return false }
            letterCount += 1
            if !hasCapital { hasCapital = scalar.properties.changesWhenLowercased }
            if !hasVowel {
                hasVowel = foldTable.withFoldedUTF8(of: scalar) { folded in
                    folded.first.map { "aeiouy".utf8.contains($0) } ?? false
                }
            }
        }
        guard letterCount > 0 else { return false }
        return !hasCapital || (letterCount >= 3 && !hasVowel)
    }

    @inline(__always)
    private static func isASCIIVowel(_ lowercase: UInt8) -> Bool {
        switch lowercase {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"), UInt8(ascii: "y"): return true
        default: return false
        }
    }
}
