// CoveredWords.swift: the words of a matched name that a match's highlight touches (WORDS.md §13).

/// The words of a matched name that its highlight touches, as word key bytes: from the word
/// where the highlight starts to the end of the word where it ends ("new york" in "New York
/// Van Java" for the query "new yo"). Two matches of one query that cover the same words
/// name the same thing there, which is what WORDS.md §13 compares.
///
/// Also kept: the name's whole word key and its word count, which the rules of §13 test.
struct CoveredWords {
    /// The covered words' key: their folded words joined by single spaces.
    let key: ArraySlice<UInt8>
    /// How many words `key` has.
    let wordCount: Int
    /// The word key of the whole name.
    let nameKey: [UInt8]
    /// How many words the name has.
    let nameWordCount: Int
    /// Whether the highlight ends before the end of its last word ("beijing" in "beijingusutoku").
    let endsInsideWord: Bool

    /// The covered words of `name` (UTF-8) for a highlight of `highlight` (UTF-16 units), or
    /// `nil` when the highlight is empty or covers no letter of the key.
    /// - Complexity: O(*n*) for a name of *n* bytes: the name's key is encoded three times
    ///   (whole, and up to each end of the highlight), which allocates its key and word starts.
    init?(name: UnsafeRawBufferPointer, highlight: Range<Int>, table: FoldTable) {
        guard !highlight.isEmpty else { return nil }
        var nameKey: [UInt8] = []
        var wordStarts: [Int] = []
        WordKey.encode(utf8: name, with: table, into: &nameKey, wordStarts: &wordStarts)
        // The key bytes of the name before each end of the highlight: the encoder emits a word's
        // space only before its next letter, so the key of a leading part is a prefix of the key.
        guard let (startByte, endByte) = Self.byteOffsets(of: highlight, in: name) else { return nil }
        let before = Self.keyLength(of: UnsafeRawBufferPointer(rebasing: name[..<startByte]), table: table)
        let through = Self.keyLength(of: UnsafeRawBufferPointer(rebasing: name[..<endByte]), table: table)
        // The first word starting at or after `before`, the last starting before `through`.
        guard let first = wordStarts.firstIndex(where: { $0 >= before }),
              let last = wordStarts.lastIndex(where: { $0 < through }), first <= last else { return nil }
        let end = last + 1 < wordStarts.count ? wordStarts[last + 1] - 1 : nameKey.count
        key = nameKey[wordStarts[first] ..< end]
        wordCount = last - first + 1
        self.nameKey = nameKey
        nameWordCount = wordStarts.count
        endsInsideWord = through < end
    }

    /// Whether `nameKey` starts with all of `other`'s words, and has more.
    func nameExtends(_ other: CoveredWords) -> Bool {
        nameWordCount > other.nameWordCount && nameKey.starts(with: other.nameKey) && nameKey[other.nameKey.count] == 0x20
    }

    /// The byte offsets in `name` of a range of UTF-16 offsets (each at a scalar boundary, or
    /// past the end: clamped), or `nil` when the range starts past the name.
    private static func byteOffsets(of range: Range<Int>, in name: UnsafeRawBufferPointer) -> (Int, Int)? {
        var position = 0
        var utf16Offset = 0
        var start: Int?
        while position < name.count {
            if start == nil && utf16Offset >= range.lowerBound { start = position }
            if utf16Offset >= range.upperBound { break }
            let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
            position += length
            utf16Offset += scalar.utf16.count
        }
        guard let start else { return nil }
        return (start, position)
    }

    /// The length of the word key of `text`.
    private static func keyLength(of text: UnsafeRawBufferPointer, table: FoldTable) -> Int {
        var count = 0
        WordKey.encode(utf8: text, with: table) { _, _ in count += 1 }
        return count
    }
}
