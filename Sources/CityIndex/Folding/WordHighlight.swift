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

    /// The highlight of `word` (below `wordCount`) when `matchedLength` accepts its suffix key
    /// as far as it is known, `key[..<knownCount]`: `offsets` holds each key byte's UTF-16
    /// end, then each word's key offset and UTF-16 start from `keyCapacity` on.
    @inline(__always)
    private static func highlight(ofWord word: Int, key: UnsafeMutableBufferPointer<UInt8>, knownCount: Int,
                                  offsets: UnsafeMutableBufferPointer<Int32>, keyCapacity: Int,
                                  matchedLength: (Slice<UnsafeBufferPointer<UInt8>>) -> Int?) -> Range<Int>? {
        let keyOffset = Int(offsets[keyCapacity + 2 * word])
        let utf16Start = Int(offsets[keyCapacity + 2 * word + 1])
        guard let length = matchedLength(UnsafeBufferPointer(rebasing: key[0 ..< knownCount])[keyOffset...]) else { return nil }
        guard length > 0 else { return utf16Start ..< utf16Start }
        return utf16Start ..< Int(offsets[min(keyOffset + length, knownCount) - 1])
    }

    /// `range(inName:table:matchedLength:)` with room for `keyCapacity` key bytes; `.none`
    /// when the key needs more.
    private static func range(inName name: UnsafeRawBufferPointer, table: FoldTable, keyCapacity: Int, lookahead: Int?,
                              matchedLength: (Slice<UnsafeBufferPointer<UInt8>>) -> Int?) -> Range<Int>?? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keyCapacity) { key in
            // The UTF-16 end of the scalar each key byte came from, then each word's key offset
            // and UTF-16 start (a word starts at a key byte, so there are at most as many).
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * keyCapacity) { offsets in
                var keyCount = 0, wordCount = 0
                var overflowed = false
                var encoder = WordKeyEncoder()
                var position = 0
                var utf16Offset = 0
                /// Key bytes from this index on came from the latest scalar with a non-empty fold.
                var latestScalarBytes = 0
                /// The first word not decided yet (with a `lookahead`).
                var nextWord = 0
                while position < name.count && !overflowed {
                    // Key bytes before the latest scalar's never change: decide the words
                    // whose first `lookahead` bytes they hold.
                    while let lookahead, nextWord < wordCount,
                          Int(offsets[keyCapacity + 2 * nextWord]) + lookahead <= latestScalarBytes {
                        if let found = highlight(ofWord: nextWord, key: key, knownCount: latestScalarBytes, offsets: offsets,
                                                 keyCapacity: keyCapacity, matchedLength: matchedLength) {
                            return .some(found)
                        }
                        nextWord += 1
                    }
                    if name[position] < 0x80, let folded = table.singleByteFold(ofASCII: name[position]) {
                        // ASCII whose fold is one byte (most of most names): what the general
                        // path below does, without decoding the scalar or a closure per byte.
                        let scalarStart = utf16Offset
                        utf16Offset += 1
                        position += 1
                        latestScalarBytes = keyCount
                        guard let (spaceFirst, startsWord) = encoder.feed(foldedASCII: folded) else { continue }
                        let end = Int32(truncatingIfNeeded: utf16Offset)
                        guard keyCount + (spaceFirst ? 2 : 1) <= keyCapacity else {
                            overflowed = true
                            break
                        }
                        if spaceFirst {
                            // The space between two words belongs to neither: it is not this scalar's.
                            latestScalarBytes += 1
                            key[keyCount] = 0x20
                            offsets[keyCount] = end
                            keyCount += 1
                        }
                        if startsWord {
                            offsets[keyCapacity + 2 * wordCount] = Int32(truncatingIfNeeded: keyCount)
                            offsets[keyCapacity + 2 * wordCount + 1] = Int32(truncatingIfNeeded: scalarStart)
                            wordCount += 1
                        }
                        key[keyCount] = folded
                        offsets[keyCount] = end
                        keyCount += 1
                        continue
                    }
                    let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
                    let scalarStart = utf16Offset
                    utf16Offset += scalar.utf16.count
                    position += length
                    let end = Int32(truncatingIfNeeded: utf16Offset)
                    let foldIsEmpty = table.withFoldedUTF8(of: scalar) { bytes -> Bool in
                        if bytes.isEmpty { return true }
                        latestScalarBytes = keyCount
                        _ = encoder.feed(foldedUTF8: bytes) { byte, startsWord in
                            guard keyCount < keyCapacity else {
                                overflowed = true
                                return false
                            }
                            if startsWord {
                                offsets[keyCapacity + 2 * wordCount] = Int32(truncatingIfNeeded: keyCount)
                                offsets[keyCapacity + 2 * wordCount + 1] = Int32(truncatingIfNeeded: scalarStart)
                                wordCount += 1
                            }
                            if byte == 0x20 && !startsWord && keyCount == latestScalarBytes { latestScalarBytes += 1 }
                            key[keyCount] = byte
                            offsets[keyCount] = end
                            keyCount += 1
                            return true
                        }
                        return false
                    }
                    if foldIsEmpty {
                        for index in latestScalarBytes ..< keyCount { offsets[index] = end }
                    }
                }
                if overflowed { return .none }
                for word in nextWord ..< wordCount {
                    if let found = highlight(ofWord: word, key: key, knownCount: keyCount, offsets: offsets,
                                             keyCapacity: keyCapacity, matchedLength: matchedLength) {
                        return .some(found)
                    }
                }
                return .some(nil)
            }
        }
    }
}
