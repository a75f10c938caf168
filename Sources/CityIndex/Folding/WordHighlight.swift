// WordHighlight.swift: where a word-matching query matched inside a name (WORDS.md §4).

/// Finds the highlight of a word match: the earliest word of the name whose suffix key
/// starts with the query's word key, from that word's first scalar to the end of the scalar
/// that gave the last matched key byte (not counting a trailing space of the query),
/// extended over following scalars that fold to nothing.
enum WordHighlight {
    /// The highlight in UTF-16 code units of `name`, or `nil` when no word of the name
    /// starts the query key (a damaged file) or the key is empty.
    /// - Complexity: O(*n* + *w*·*m*) for a name of *n* bytes and *w* words, query key of *m* bytes.
    static func range(ofQueryKey query: [UInt8], inName name: UnsafeRawBufferPointer, table: FoldTable) -> Range<Int>? {
        var matchedCount = query.count
        if matchedCount > 0 && query[matchedCount - 1] == 0x20 { matchedCount -= 1 }
        guard matchedCount > 0 else { return nil }
        return range(inName: name, table: table, lookahead: query.count) { suffixKey in
            suffixKey.starts(with: query) ? matchedCount : nil
        }
    }

    /// The highlight of the earliest word of `name` for which `matchedLength` of its suffix
    /// key is not `nil`: from the word's first scalar to the end of the scalar that gave key
    /// byte `matchedLength − 1` (an empty range at the word's start for 0), extended over
    /// following scalars that fold to nothing. `nil` when no word matches.
    ///
    /// With a `lookahead` (when `matchedLength` reads at most that many bytes of a suffix key
    /// and returns at most that length), each word is decided as soon as that many of its key
    /// bytes are known, and the read stops at the first that matches: most matches are the
    /// first word, and the rest of the name is not folded.
    /// - Complexity: O(*n* + *w*·*m*); nothing allocated on the heap for names of up to a few
    ///   hundred bytes (the key and its offsets live in stack buffers).
    static func range(inName name: UnsafeRawBufferPointer, table: FoldTable, lookahead: Int? = nil,
                      matchedLength: (Slice<UnsafeBufferPointer<UInt8>>) -> Int?) -> Range<Int>? {
        // A name's word key rarely has more than 4 bytes per name byte; one that outgrows that
        // is read again with room for the longest fold (255 bytes) of every byte.
        if let found = range(inName: name, table: table, keyCapacity: 4 * name.count + 16, lookahead: lookahead,
                             matchedLength: matchedLength) {
            return found
        }
        return range(inName: name, table: table, keyCapacity: 255 * name.count + 16, lookahead: lookahead,
                     matchedLength: matchedLength) ?? nil
    }

    /// `range(inName:table:matchedLength:)` with room for `keyCapacity` key bytes; `.none`
    /// when the key needs more.
    private static func range(inName name: UnsafeRawBufferPointer, table: FoldTable, keyCapacity: Int, lookahead: Int?,
                              matchedLength: (Slice<UnsafeBufferPointer<UInt8>>) -> Int?) -> Range<Int>?? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keyCapacity) { key in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * keyCapacity) { offsets in
                var read = NameKeyRead(key: key, offsets: offsets)
                var encoder = WordKeyEncoder()
                var position = 0
                var utf16Offset = 0
                /// The first word not decided yet (with a `lookahead`).
                var nextWord = 0
                while position < name.count {
                    // Key bytes before the latest scalar's never change: decide the words
                    // whose first `lookahead` bytes they hold.
                    while let lookahead, nextWord < read.wordCount, read.keyOffset(ofWord: nextWord) + lookahead <= read.latestScalarBytes {
                        if let found = read.highlight(ofWord: nextWord, knownCount: read.latestScalarBytes, matchedLength: matchedLength) {
                            return .some(found)
                        }
                        nextWord += 1
                    }
                    let scalarStart = utf16Offset
                    if name[position] < 0x80, let folded = table.singleByteFold(ofASCII: name[position]) {
                        // ASCII whose fold is one byte (most of most names): the general path
                        // below without decoding the scalar or a closure per byte.
                        utf16Offset += 1
                        position += 1
                        read.latestScalarBytes = read.count
                        guard let (spaceFirst, startsWord) = encoder.feed(foldedASCII: folded) else { continue }
                        let end = Int32(truncatingIfNeeded: utf16Offset)
                        guard !spaceFirst || read.append(0x20, startsWord: false, scalarStart: scalarStart, end: end),
                              read.append(folded, startsWord: startsWord, scalarStart: scalarStart, end: end) else { return .none }
                        continue
                    }
                    let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
                    utf16Offset += scalar.utf16.count
                    position += length
                    let end = Int32(truncatingIfNeeded: utf16Offset)
                    var overflowed = false
                    let foldIsEmpty = table.withFoldedUTF8(of: scalar) { bytes -> Bool in
                        if bytes.isEmpty { return true }
                        read.latestScalarBytes = read.count
                        _ = encoder.feed(foldedUTF8: bytes) { byte, startsWord in
                            overflowed = !read.append(byte, startsWord: startsWord, scalarStart: scalarStart, end: end)
                            return !overflowed
                        }
                        return false
                    }
                    if overflowed { return .none }
                    if foldIsEmpty { read.extendLatestScalar(to: end) }
                }
                for word in nextWord ..< read.wordCount {
                    if let found = read.highlight(ofWord: word, knownCount: read.count, matchedLength: matchedLength) {
                        return .some(found)
                    }
                }
                return .some(nil)
            }
        }
    }
}

/// A name's word key as `WordHighlight` reads it, in two caller-owned buffers: the key bytes,
/// and, in `offsets`, the UTF-16 end of the scalar each key byte came from, then from
/// `key.count` on each word's key offset and UTF-16 start (a word starts at a key byte, so
/// there are at most as many words as key bytes: `offsets` holds `3 × key.count`).
private struct NameKeyRead {
    let key: UnsafeMutableBufferPointer<UInt8>
    let offsets: UnsafeMutableBufferPointer<Int32>
    /// Key bytes read.
    private(set) var count = 0
    /// Words started.
    private(set) var wordCount = 0
    /// Key bytes from this index on came from the latest scalar with a non-empty fold (those
    /// before it can no longer change).
    var latestScalarBytes = 0

    init(key: UnsafeMutableBufferPointer<UInt8>, offsets: UnsafeMutableBufferPointer<Int32>) {
        self.key = key
        self.offsets = offsets
    }

    /// Appends a key byte of the scalar that starts at UTF-16 offset `scalarStart` and ends at
    /// `end`; false (nothing appended) when the key is full. O(1).
    @inline(__always)
    mutating func append(_ byte: UInt8, startsWord: Bool, scalarStart: Int, end: Int32) -> Bool {
        guard count < key.count else { return false }
        if startsWord {
            offsets[key.count + 2 * wordCount] = Int32(truncatingIfNeeded: count)
            offsets[key.count + 2 * wordCount + 1] = Int32(truncatingIfNeeded: scalarStart)
            wordCount += 1
        }
        // The space between two words belongs to neither: it is not the latest scalar's.
        if byte == 0x20 && !startsWord && count == latestScalarBytes { latestScalarBytes += 1 }
        key[count] = byte
        offsets[count] = end
        count += 1
        return true
    }

    /// A scalar that folds to nothing (a combining mark) extends the latest scalar's key
    /// bytes to its own UTF-16 `end`. O(bytes of that scalar).
    @inline(__always)
    func extendLatestScalar(to end: Int32) {
        for index in latestScalarBytes ..< count { offsets[index] = end }
    }

    /// Where the key of `word` (below `wordCount`) starts. O(1).
    @inline(__always)
    func keyOffset(ofWord word: Int) -> Int { Int(offsets[key.count + 2 * word]) }

    /// The highlight of `word` (below `wordCount`) when `matchedLength` accepts its suffix key
    /// as far as it is known, `key[..<knownCount]`. O(what `matchedLength` reads).
    @inline(__always)
    func highlight(ofWord word: Int, knownCount: Int, matchedLength: (Slice<UnsafeBufferPointer<UInt8>>) -> Int?) -> Range<Int>? {
        let keyOffset = keyOffset(ofWord: word)
        let utf16Start = Int(offsets[key.count + 2 * word + 1])
        guard let length = matchedLength(UnsafeBufferPointer(rebasing: key[0 ..< knownCount])[keyOffset...]) else { return nil }
        guard length > 0 else { return utf16Start ..< utf16Start }
        return utf16Start ..< Int(offsets[min(keyOffset + length, knownCount) - 1])
    }
}
