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
    /// - Complexity: O(*n*) for a name of *n* bytes, in one pass of `WordKey`'s encoding
    ///   (which notes the key's length at each end of the highlight) into stack buffers;
    ///   allocates the name's key.
    init?(name: UnsafeRawBufferPointer, highlight: Range<Int>, table: FoldTable) {
        guard !highlight.isEmpty else { return nil }
        self.init(name: name, span: .utf16(highlight), table: table)
    }

    /// The covered words of `name` (UTF-8) matched by the word query `queryKey` (a word key,
    /// WORDS.md §2): those of its highlight (§4), found in key space without computing it. The
    /// highlight starts at the earliest word whose suffix key starts with `queryKey` and ends
    /// with the scalar that gave the last matched key byte (a trailing space of the query not
    /// counted), so the same words are covered. `nil` when no word matches or the key is empty.
    /// - Complexity: O(*n* + *w*·*m*) for a name of *n* bytes and *w* words, a key of *m* bytes,
    ///   in one pass of `WordKey`'s encoding; allocates the name's key.
    init?(name: UnsafeRawBufferPointer, queryKey: [UInt8], table: FoldTable) {
        guard queryKey.count > (queryKey.last == 0x20 ? 1 : 0) else { return nil }
        self.init(name: name, span: .queryKey(queryKey), table: table)
    }

    /// Where the covered words are: a highlight, or the words a word query's key matches.
    private enum Span {
        case utf16(Range<Int>)
        case queryKey([UInt8])
    }

    private init?(name: UnsafeRawBufferPointer, span: Span, table: FoldTable) {
        // A name's word key rarely has more than 4 bytes per name byte; one that outgrows that
        // is read again with room for the longest fold (255 bytes) of every byte.
        let read = Self.read(name, span: span, table: table, capacity: 4 * name.count + 16)
            ?? Self.read(name, span: span, table: table, capacity: 255 * name.count + 16)
        guard let read, let found = read else { return nil }
        self = found
    }

    private init(key: ArraySlice<UInt8>, wordCount: Int, nameKey: [UInt8], nameWordCount: Int, endsInsideWord: Bool) {
        self.key = key
        self.wordCount = wordCount
        self.nameKey = nameKey
        self.nameWordCount = nameWordCount
        self.endsInsideWord = endsInsideWord
    }

    /// The covered words with room for `capacity` key bytes: `nil` when the key needs more,
    /// `.some(nil)` when nothing is covered.
    private static func read(_ name: UnsafeRawBufferPointer, span: Span, table: FoldTable, capacity: Int) -> CoveredWords?? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { key in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { wordStarts in
                // The key's length before each scalar (a word query's span), nondecreasing.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: name.count + 1) { scalarStarts in
                    var count = 0
                    var wordCount = 0
                    var scalarCount = 0
                    var overflowed = false
                    // A highlight's bounds: the key's length when the highlight starts and when
                    // it ends. The encoder emits a word's space only before its next letter, so
                    // the key of a leading part of the name is a prefix of the name's key.
                    var before: Int?
                    var through: Int?
                    var startByte: Int?
                    var endByte = Int.max
                    if case .utf16(let highlight) = span { (startByte, endByte) = byteOffsets(of: highlight, in: name) }
                    WordKey.encode(utf8: name, with: table, beforeScalarAt: { position in
                        switch span {
                        case .utf16:
                            if before == nil, let startByte, position >= startByte { before = count }
                            if through == nil && position >= endByte { through = count }
                        case .queryKey:
                            scalarStarts[scalarCount] = count
                            scalarCount += 1
                        }
                    }, emit: { byte, startsWord in
                        guard count < capacity else {
                            overflowed = true
                            return
                        }
                        if startsWord {
                            wordStarts[wordCount] = count
                            wordCount += 1
                        }
                        key[count] = byte
                        count += 1
                    })
                    guard !overflowed else { return nil }
                    if case .queryKey(let queryKey) = span {
                        // The earliest word whose suffix key starts with the query key; the
                        // highlight ends with the scalar of the last matched byte.
                        let keyBytes = UnsafeBufferPointer(rebasing: key[0 ..< count])
                        guard let word = (0 ..< wordCount).first(where: { keyBytes[wordStarts[$0]...].starts(with: queryKey) })
                        else { return .some(nil) }
                        let lastByte = wordStarts[word] + queryKey.count - (queryKey.last == 0x20 ? 1 : 0) - 1
                        before = wordStarts[word]
                        through = scalarStarts[0 ..< scalarCount].first { $0 > lastByte }
                    }
                    guard let before else { return .some(nil) }
                    let last = through ?? count
                    // The first word starting at or after `before`, the last starting before `last`.
                    var first = 0
                    while first < wordCount && wordStarts[first] < before { first += 1 }
                    var final = wordCount - 1
                    while final >= 0 && wordStarts[final] >= last { final -= 1 }
                    guard first < wordCount, final >= first else { return .some(nil) }
                    let end = final + 1 < wordCount ? wordStarts[final + 1] - 1 : count
                    let nameKey = Array(key[0 ..< count])
                    return CoveredWords(key: nameKey[wordStarts[first] ..< end], wordCount: final - first + 1, nameKey: nameKey,
                                        nameWordCount: wordCount, endsInsideWord: last < end)
                }
            }
        }
    }

    /// Whether `nameKey` starts with all of `other`'s words, and has more.
    func nameExtends(_ other: CoveredWords) -> Bool {
        nameWordCount > other.nameWordCount && nameKey.starts(with: other.nameKey) && nameKey[other.nameKey.count] == 0x20
    }

    /// The words of this name after the words of `other`'s name, which it extends
    /// (`nameExtends(_:)`).
    func words(after other: CoveredWords) -> [ArraySlice<UInt8>] {
        nameKey[(other.nameKey.count + 1)...].split(separator: 0x20)
    }

    /// The byte offsets in `name` of the bounds of `range` (UTF-16 offsets at scalar
    /// boundaries): the start is `nil` when the range starts at or past the name's end, and
    /// the end is clamped to the name's length. O(bytes up to the range's end).
    private static func byteOffsets(of range: Range<Int>, in name: UnsafeRawBufferPointer) -> (start: Int?, end: Int) {
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
        return (start, position)
    }
}

extension CityIndex {
    /// The covered words of `name` for the word query `query` found both ways, in key space
    /// and from the highlight, described (key, word counts, whether the highlight ends inside
    /// a word): the tests check that they agree.
    package func coveredWordsForTesting(inName name: String, query: String) -> (keySpace: String, highlight: String) {
        let table = contents.foldTable
        let key = SearchPlan.key(of: query, matching: .words, foldTable: table)
        func describe(_ words: CoveredWords?) -> String {
            guard let words else { return "none" }
            return "\(String(decoding: words.key, as: UTF8.self)) \(words.wordCount)/\(words.nameWordCount)"
                + (words.endsInsideWord ? " inside" : "")
        }
        var utf8 = Array(name.utf8)
        return utf8.withUnsafeMutableBytes { name in
            let bytes = UnsafeRawBufferPointer(name)
            let highlight = WordHighlight.range(ofQueryKey: key, inName: bytes, table: table) ?? 0 ..< 0
            return (describe(CoveredWords(name: bytes, queryKey: key, table: table)),
                    describe(CoveredWords(name: bytes, highlight: highlight, table: table)))
        }
    }
}
