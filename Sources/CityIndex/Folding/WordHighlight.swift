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
        return range(inName: name, table: table) { suffixKey in suffixKey.starts(with: query) ? matchedCount : nil }
    }

    /// The highlight of the earliest word of `name` for which `matchedLength` of its suffix
    /// key is not `nil`: from the word's first scalar to the end of the scalar that gave key
    /// byte `matchedLength − 1` (an empty range at the word's start for 0), extended over
    /// following scalars that fold to nothing. `nil` when no word matches.
    static func range(inName name: UnsafeRawBufferPointer, table: FoldTable,
                      matchedLength: (ArraySlice<UInt8>) -> Int?) -> Range<Int>? {

        var key: [UInt8] = []
        /// The UTF-16 end of the scalar each key byte came from.
        var byteEnds: [Int] = []
        var words: [(keyOffset: Int, utf16Start: Int)] = []
        var encoder = WordKeyEncoder()
        var position = 0
        var utf16Offset = 0
        /// Key bytes from this index on came from the latest scalar with a non-empty fold.
        var latestScalarBytes = 0
        while position < name.count {
            let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
            let scalarStart = utf16Offset
            utf16Offset += scalar.utf16.count
            position += length
            let end = utf16Offset
            let foldIsEmpty = table.withFoldedUTF8(of: scalar) { bytes -> Bool in
                if bytes.isEmpty { return true }
                latestScalarBytes = key.count
                _ = encoder.feed(foldedUTF8: bytes) { byte, startsWord in
                    if startsWord { words.append((key.count, scalarStart)) }
                    if byte == 0x20 && !startsWord && key.count == latestScalarBytes { latestScalarBytes += 1 }
                    key.append(byte)
                    byteEnds.append(end)
                    return true
                }
                return false
            }
            if foldIsEmpty {
                for index in latestScalarBytes ..< byteEnds.count { byteEnds[index] = end }
            }
        }
        for word in words {
            guard let length = matchedLength(key[word.keyOffset...]) else { continue }
            guard length > 0 else { return word.utf16Start ..< word.utf16Start }
            return word.utf16Start ..< byteEnds[min(word.keyOffset + length, key.count) - 1]
        }
        return nil
    }
}
