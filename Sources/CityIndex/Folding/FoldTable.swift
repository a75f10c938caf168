// FoldTable.swift: the folding of SEARCH.md §1 as written into the file (FORMAT.md §5).

/// Folds Unicode scalars to search-key bytes with the table the builder wrote.
///
/// The table lists every scalar whose fold differs from itself, except Hangul syllables,
/// which fold by Unicode's arithmetic decomposition (FORMAT.md §5.2). Any other scalar folds
/// to itself. The builder folds names through this same type, so queries and names fold
/// alike by construction.
///
/// Invariants (checked by `validateEntries()`, O(table size), which `verify()` runs):
/// entries are sorted by strictly increasing scalar; every scalar is valid and not a Hangul
/// syllable; every output lies in the output area and is valid UTF-8.
package struct FoldTable: @unchecked Sendable {
    private let entries: ByteView
    private let outputs: ByteView
    /// Number of entries.
    package let entryCount: Int
    /// The fast path, one little-endian word per scalar below `fastPathEnd` (U+0250: ASCII,
    /// Latin-1 and Latin Extended-A and B, what Latin names are made of): bits 0–31
    /// `offset << 8 | byteCount` of the scalar's output, or `0xFFFF_FFFF` for identity; bits
    /// 32–47 the one (ASCII) byte it folds to, or `0xFFFF` when its fold is empty, longer, or
    /// a non-ASCII scalar itself; bits 48–55 how many scalars its fold has. A fold of these
    /// scalars is then a word read instead of a binary search of the table.
    ///
    /// Its memory is the `IndexFileBytes` that `validating(_:)` returns with the table, which
    /// whoever holds the table keeps alive (as every holder of a `ByteView` keeps its storage):
    /// the table itself retains nothing, so a copy of it (every search, every closure that
    /// folds, every `FoldedBytes`) costs no reference counting.
    private let fastPath: ByteView

    /// The first scalar the fast path does not cover (the end of Latin Extended-B).
    static let fastPathEnd: UInt32 = 0x250

    /// Checks a `FOLD` section's size against its header and builds the fast path.
    /// Returns the table and the storage of its fast path, which the caller must keep alive
    /// as long as any copy of the table.
    /// - Complexity: O(1) in the table size (its entries below U+0250, one pass, and 592
    ///   words written, about 5 KB): the entries themselves are checked
    ///   by `validateEntries()`, which `verify()` runs. Lookups are safe without it: every
    ///   read is bounds-checked, and an unsorted table only makes a binary search miss.
    static func validating(_ section: ByteView) throws(IndexFileError) -> (table: FoldTable, fastPathStorage: IndexFileBytes) {
        let (entries, outputs, entryCount) = try areas(of: section)
        let fastPathStorage = try IndexFileBytes(copying: fastPathBytes(entries: entries, outputs: outputs, entryCount: entryCount))
        let table = FoldTable(entries: entries, outputs: outputs, entryCount: entryCount, fastPath: fastPathStorage.bytes)
        return (table, fastPathStorage)
    }

    private init(entries: ByteView, outputs: ByteView, entryCount: Int, fastPath: ByteView) {
        self.entries = entries
        self.outputs = outputs
        self.entryCount = entryCount
        self.fastPath = fastPath
    }

    /// The entry area, the output area and the entry count of `section`, checked against
    /// its header. O(1).
    private static func areas(of section: ByteView) throws(IndexFileError) -> (entries: ByteView, outputs: ByteView, entryCount: Int) {
        guard let entryCount = section.uint32(at: 0), let outputByteCount = section.uint32(at: 4) else {
            throw .sectionSizeMismatch(section: .foldTable, byteCount: UInt64(section.count),
                                       expectedByteCount: UInt64(FormatConstants.foldHeaderByteCount))
        }
        let expected = UInt64(FormatConstants.foldHeaderByteCount) + UInt64(entryCount) * UInt64(FormatConstants.foldEntryByteCount)
            + UInt64(outputByteCount)
        guard expected == UInt64(section.count) else {
            throw .sectionSizeMismatch(section: .foldTable, byteCount: UInt64(section.count), expectedByteCount: expected)
        }
        let entriesByteCount = Int(entryCount) * FormatConstants.foldEntryByteCount
        return (section.slice(uncheckedOffset: FormatConstants.foldHeaderByteCount, length: entriesByteCount),
                section.slice(uncheckedOffset: FormatConstants.foldHeaderByteCount + entriesByteCount, length: Int(outputByteCount)),
                Int(entryCount))
    }

    /// The bytes of the fast path of a table (see `fastPath`): every scalar below `fastPathEnd`
    /// folds to itself but those the table lists, which are its first entries (it is sorted;
    /// on a damaged, unsorted table the pass stops at its first entry past the range, and a
    /// scalar it missed folds to itself, as a binary search that misses does).
    /// - Complexity: O(*e*) for the *e* entries below `fastPathEnd`, and the 592 words.
    private static func fastPathBytes(entries: ByteView, outputs: ByteView, entryCount: Int) throws(IndexFileError) -> [UInt8] {
        var words = (0 ..< fastPathEnd).map { value -> UInt64 in
            // Identity: one scalar, its own byte when it is ASCII.
            UInt64(UInt32.max) | UInt64(value < 0x80 ? UInt16(value) : 0xFFFF) << 32 | 1 << 48
        }
        for index in 0 ..< entryCount {
            let value = entries.uint32(uncheckedAt: index * 8)
            guard value < fastPathEnd else { break }
            let (offset, byteCount) = Self.unpack(entries.uint32(uncheckedAt: index * 8 + 4))
            guard offset <= 0xFF_FFFF, byteCount <= 0xFF, let output = outputs.slice(offset: offset, length: byteCount) else {
                throw .corruptFoldTable(entryIndex: index, reason: .outputOutOfBounds)
            }
            let fold = UInt32(offset) << 8 | UInt32(byteCount)
            let scalarCount = UInt8(truncatingIfNeeded: output.buffer.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) })
            let singleByte = byteCount == 1 ? UInt16(output.uint8(uncheckedAt: 0)) : 0xFFFF
            words[Int(value)] = UInt64(fold) | UInt64(singleByte) << 32 | UInt64(scalarCount) << 48
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * words.count)
        for word in words { withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// The fast-path word of the ASCII scalar `value & 0x7F`. O(1).
    @inline(__always)
    private func asciiWord(_ value: UInt8) -> UInt64 {
        fastPathWord(UInt32(value & 0x7F))
    }

    /// The fast-path word of `value`, which must be below `fastPathEnd`. O(1).
    @inline(__always)
    private func fastPathWord(_ value: UInt32) -> UInt64 {
        fastPath.uint64(uncheckedAt: Int(value) &<< 3)
    }

    /// The one byte a fast-path word says its scalar folds to (bits 32–47), or `nil`.
    @inline(__always)
    private static func singleByte(ofWord word: UInt64) -> UInt8? {
        let folded = UInt16(truncatingIfNeeded: word >> 32)
        return folded > 0xFF ? nil : UInt8(truncatingIfNeeded: folded)
    }

    /// How many scalars a fast-path word says its scalar's fold has (bits 48–55).
    @inline(__always)
    private static func scalarCount(ofWord word: UInt64) -> Int {
        Int(truncatingIfNeeded: UInt8(truncatingIfNeeded: word >> 48))
    }

    /// Checks every entry against the invariants above. O(table size).
    func validateEntries() throws(IndexFileError) {
        var previousScalar: UInt32?
        for index in 0..<entryCount {
            let scalarValue = entries.uint32(uncheckedAt: index * 8)
            if let previousScalar, scalarValue <= previousScalar {
                throw .corruptFoldTable(entryIndex: index, reason: .scalarsNotIncreasing)
            }
            guard Unicode.Scalar(scalarValue) != nil, !FormatConstants.hangulSyllables.contains(scalarValue) else {
                throw .corruptFoldTable(entryIndex: index, reason: .invalidScalar(scalarValue))
            }
            let (offset, byteCount) = Self.unpack(entries.uint32(uncheckedAt: index * 8 + 4))
            guard let output = outputs.slice(offset: offset, length: byteCount) else {
                throw .corruptFoldTable(entryIndex: index, reason: .outputOutOfBounds)
            }
            guard UTF8Validation.isValid(output.buffer) else {
                throw .corruptFoldTable(entryIndex: index, reason: .outputNotUTF8)
            }
            previousScalar = scalarValue
        }
    }

    /// Binary search for `value` among the entries' scalars.
    @inline(__always)
    private static func entryIndex(of value: UInt32, in entries: ByteView, count: Int) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let middleScalar = entries.uint32(uncheckedAt: middle * 8)
            if middleScalar < value {
                low = middle + 1
            } else if middleScalar > value {
                high = middle
            } else {
                return middle
            }
        }
        return nil
    }

    @inline(__always)
    private static func unpack(_ packed: UInt32) -> (offset: Int, byteCount: Int) {
        (Int(packed & ((1 << FormatConstants.foldOutputOffsetBits) - 1)), Int(packed >> FormatConstants.foldOutputOffsetBits))
    }

    /// The table's output for `scalar`, or `nil` when the scalar is not listed.
    /// - Complexity: O(1) below U+0250, O(log *entryCount*) otherwise.
    @inline(__always)
    private func tableOutput(for scalar: Unicode.Scalar) -> ByteView? {
        let value = scalar.value
        if value < Self.fastPathEnd {
            let packed = UInt32(truncatingIfNeeded: fastPathWord(value))
            if packed == .max { return nil }
            return outputs.slice(offset: Int(packed >> 8), length: Int(packed & 0xFF))
        }
        guard let index = Self.entryIndex(of: value, in: entries, count: entryCount) else { return nil }
        let (offset, byteCount) = Self.unpack(entries.uint32(uncheckedAt: index * 8 + 4))
        // On a damaged table an output may lie outside the output area: treat it as absent.
        return outputs.slice(offset: offset, length: byteCount)
    }

    /// The one byte an ASCII byte folds to, or `nil` when its fold is empty or longer. O(1).
    @inline(__always)
    func singleByteFold(ofASCII value: UInt8) -> UInt8? {
        Self.singleByte(ofWord: asciiWord(value))
    }

    /// The one ASCII byte a scalar below U+0250 folds to ("é" → "e"), or `nil` when its fold
    /// is empty, longer or not ASCII, or `value` is not below `fastPathEnd`. O(1).
    @inline(__always)
    func singleByteFold(ofLatin value: UInt32) -> UInt8? {
        value < Self.fastPathEnd ? Self.singleByte(ofWord: fastPathWord(value)) : nil
    }

    /// `fold(scalar)` as a value that can be kept (`FoldedBytes` pulls from it): a table
    /// output points into the mapped file, any other fold (the scalar itself, or a Hangul
    /// syllable's at most three jamo) is copied inline. O(1) below U+0250, O(log *f*) otherwise.
    @inline(__always)
    func scalarFold(of scalar: Unicode.Scalar) -> ScalarFold {
        if let output = tableOutput(for: scalar) { return ScalarFold(tableOutput: output) }
        var fold = ScalarFold()
        withUnsafeMutableBytes(of: &fold.inlineBytes) { buffer in
            if FormatConstants.hangulSyllables.contains(scalar.value) {
                let (leading, vowel, trailing) = HangulDecomposition.jamo(of: scalar)
                fold.count += UTF8Encoding.encode(leading, into: buffer, at: fold.count)
                fold.count += UTF8Encoding.encode(vowel, into: buffer, at: fold.count)
                if trailing != 0 { fold.count += UTF8Encoding.encode(trailing, into: buffer, at: fold.count) }
            } else {
                fold.count = UTF8Encoding.encode(scalar.value, into: buffer, at: 0)
            }
        }
        return fold
    }

    /// Calls `body` with the UTF-8 bytes of `fold(scalar)` (SEARCH.md §1), without allocating.
    @inline(__always)
    package func withFoldedUTF8<Result>(of scalar: Unicode.Scalar,
                                        _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let output = tableOutput(for: scalar) { return body(output.buffer) }
        var scratch: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &scratch) { buffer in
            var count = 0
            if FormatConstants.hangulSyllables.contains(scalar.value) {
                let (leading, vowel, trailing) = HangulDecomposition.jamo(of: scalar)
                count += UTF8Encoding.encode(leading, into: buffer, at: count)
                count += UTF8Encoding.encode(vowel, into: buffer, at: count)
                if trailing != 0 { count += UTF8Encoding.encode(trailing, into: buffer, at: count) }
            } else {
                count = UTF8Encoding.encode(scalar.value, into: buffer, at: 0)
            }
            return body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The highlight of SEARCH.md §4 as a UTF-16 length: the shortest run of the name's
    /// leading scalars whose folds have at least `foldedQueryScalarCount` scalars, extended
    /// over scalars that fold to nothing. 0 for the empty query.
    /// - Complexity: O(*h*) scalars of the highlighted part (O(1) each below U+0250, O(log *f*)
    ///   otherwise); allocates nothing.
    package func highlightUTF16Length(ofName name: UnsafeRawBufferPointer, foldedQueryScalarCount: Int) -> Int {
        guard foldedQueryScalarCount > 0 else { return 0 }
        var foldedCount = 0
        var utf16Length = 0
        var position = 0
        var reachedQueryLength = false
        while position < name.count {
            let lead = name[position]
            let scalarFoldCount: Int
            if lead < 0x80 {
                scalarFoldCount = foldedScalarCount(ofASCII: lead)
                if reachedQueryLength && scalarFoldCount > 0 { break }
                utf16Length += 1
                position += 1
            } else {
                let (scalar, byteCount) = UTF8Decoding.scalar(in: name, at: position)
                scalarFoldCount = foldedScalarCount(of: scalar)
                if reachedQueryLength && scalarFoldCount > 0 { break }
                utf16Length += scalar.utf16.count
                position += byteCount
            }
            foldedCount += scalarFoldCount
            reachedQueryLength = foldedCount >= foldedQueryScalarCount
        }
        return utf16Length
    }

    /// How many scalars `fold(c)` has for an ASCII scalar `c` (`value` < 128). O(1).
    @inline(__always)
    package func foldedScalarCount(ofASCII value: UInt8) -> Int {
        Self.scalarCount(ofWord: asciiWord(value))
    }

    /// How many scalars `fold(scalar)` has (0 for marks that fold to nothing).
    @inline(__always)
    package func foldedScalarCount(of scalar: Unicode.Scalar) -> Int {
        if scalar.value < Self.fastPathEnd { return Self.scalarCount(ofWord: fastPathWord(scalar.value)) }
        if let output = tableOutput(for: scalar) {
            var count = 0
            for byte in output.buffer where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
        if FormatConstants.hangulSyllables.contains(scalar.value) {
            return HangulDecomposition.jamo(of: scalar).2 == 0 ? 2 : 3
        }
        return 1
    }
}

/// Unicode's arithmetic decomposition of precomposed Hangul syllables (Unicode §3.12).
enum HangulDecomposition {
    /// The leading consonant, vowel and trailing consonant (0 when there is none) of `syllable`,
    /// which must be in `FormatConstants.hangulSyllables`.
    @inline(__always)
    static func jamo(of syllable: Unicode.Scalar) -> (UInt32, UInt32, UInt32) {
        let index = syllable.value - 0xAC00
        let leading = 0x1100 + index / (21 * 28)
        let vowel = 0x1161 + (index % (21 * 28)) / 28
        let trailingIndex = index % 28
        return (leading, vowel, trailingIndex == 0 ? 0 : 0x11A7 + trailingIndex)
    }
}
