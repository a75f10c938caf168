// WordKey.swift: the punctuation-insensitive word keys of word matching (WORDS.md §1).

/// Word keys: folded text with every run of separators turned into one space.
///
/// A *separator* is a folded scalar that is white space or one of
/// `- ‐ ‑ ‒ – — ― −` (hyphens and dashes), `' ‘ ’ ʼ `` (apostrophes), `. ,` and
/// `/ \ ( ) [ ]`. A name's *words* are its maximal runs of non-separators; its word key is
/// the words joined by single spaces (`Saint-Étienne` and `saint  etienne` both give
/// `saint etienne`), and each word starts a *suffix key* (`saint etienne`, `etienne`).
/// A query's word key keeps one trailing space when the query ends with a separator after
/// a word, so `"new "` still asks for a following word.
///
/// The reader and the builder both produce word keys through `WordKeyEncoder`, so query keys
/// and stored keys agree byte for byte.
package enum WordKey {
    /// Whether the scalar `value` (of folded text) separates words.
    @inline(__always)
    package static func isSeparator(_ value: UInt32) -> Bool {
        switch value {
        case 0x20, 0x09...0x0D, 0x27, 0x28, 0x29, 0x2C, 0x2D, 0x2E, 0x2F, 0x5B, 0x5C, 0x5D, 0x60: return true
        case 0..<0x80: return false
        case 0x85, 0xA0, 0x02BC, 0x1680, 0x2000...0x200A, 0x2010...0x2015, 0x2018, 0x2019,
             0x2028, 0x2029, 0x202F, 0x205F, 0x2212, 0x3000:
            return true
        default: return false
        }
    }

    /// The word key of `text` (SEARCH.md §1 folding, then separators collapsed).
    /// - Returns: the key's bytes and the offset in them where each word starts.
    package static func encode(_ text: some Sequence<Unicode.Scalar>, with table: FoldTable) -> (key: [UInt8], wordStarts: [Int]) {
        var encoder = WordKeyEncoder()
        var key: [UInt8] = []
        var wordStarts: [Int] = []
        for scalar in text {
            _ = table.withFoldedUTF8(of: scalar) { bytes in
                encoder.feed(foldedUTF8: bytes) { byte, startsWord in
                    if startsWord { wordStarts.append(key.count) }
                    key.append(byte)
                    return true
                }
            }
        }
        return (key, wordStarts)
    }

    /// `encode(_:with:)` of UTF-8 text (ill-formed sequences read as U+FFFD) into buffers a
    /// caller reuses (emptied first, capacity kept). Allocates only when they grow.
    package static func encode(utf8 text: UnsafeRawBufferPointer, with table: FoldTable,
                       into key: inout [UInt8], wordStarts: inout [Int]) {
        key.removeAll(keepingCapacity: true)
        wordStarts.removeAll(keepingCapacity: true)
        encode(utf8: text, with: table) { byte, startsWord in
            if startsWord { wordStarts.append(key.count) }
            key.append(byte)
        }
    }

    /// `encode(_:with:)` of UTF-8 text (ill-formed sequences read as U+FFFD), calling `emit`
    /// with each key byte and whether it starts a word: the one loop every word key of a
    /// stored name goes through. Allocates nothing.
    @inline(__always)
    package static func encode(utf8 text: UnsafeRawBufferPointer, with table: FoldTable,
                               emit: (_ byte: UInt8, _ startsWord: Bool) -> Void) {
        encode(utf8: text, with: table, beforeScalarAt: { _ in }, emit: emit)
    }

    /// `encode(utf8:with:emit:)`, calling `beforeScalarAt` with the byte offset of each scalar
    /// before its key bytes are emitted, and with `text.count` at the end (where a part of the
    /// text ends in its key: `CoveredWords`).
    @inline(__always)
    package static func encode(utf8 text: UnsafeRawBufferPointer, with table: FoldTable,
                               beforeScalarAt: (_ byteOffset: Int) -> Void,
                               emit: (_ byte: UInt8, _ startsWord: Bool) -> Void) {
        defer { beforeScalarAt(text.count) }
        var encoder = WordKeyEncoder()
        var position = 0
        while position < text.count {
            beforeScalarAt(position)
            let byte = text[position]
            if byte < 0x80, let folded = table.singleByteFold(ofASCII: byte) {
                position += 1
                encoder.feed(foldedASCII: folded, emit: emit)
                continue
            }
            let (scalar, length) = UTF8Decoding.scalar(in: text, at: position)
            position += length
            // A Latin letter that folds to one ASCII letter ("é", "ł"): as an ASCII byte.
            if let folded = table.singleByteFold(ofLatin: scalar.value) {
                encoder.feed(foldedASCII: folded, emit: emit)
                continue
            }
            _ = table.withFoldedUTF8(of: scalar) { folded in
                encoder.feed(foldedUTF8: folded) { byte, startsWord in
                    emit(byte, startsWord)
                    return true
                }
            }
        }
    }
}

extension WordKey {
    /// Whether `prefix` starts one of the suffix keys of `name` (UTF-8): the test word
    /// matching applies to a name (WORDS.md §2). The name's key is built in stack buffers
    /// (`WordHighlight`'s), nothing on the heap.
    /// - Complexity: O(*n* + *w*·*m*) for a name of *n* bytes and *w* words and a prefix of *m* bytes.
    static func name(_ name: UnsafeRawBufferPointer, hasSuffixKeyStartingWith prefix: [UInt8], table: FoldTable) -> Bool {
        WordHighlight.range(inName: name, table: table, lookahead: prefix.count) { suffixKey in
            suffixKey.starts(with: prefix) ? 0 : nil
        } != nil
    }
}

/// Turns folded UTF-8 into word-key bytes one scalar's fold at a time, with no allocation.
///
/// State: whether a word has started and whether a separator run is pending. The pending
/// space is written only when another word follows (or, for a query, at the end).
package struct WordKeyEncoder {
    private var hasWord = false
    private var separatorPending = false

    package init() {}

    /// Feeds the folded UTF-8 of one input scalar; calls `emit` with each output byte and
    /// whether it is the first byte of a word. Stops early when `emit` returns false.
    /// - Returns: false when `emit` did.
    @inline(__always)
    package mutating func feed(foldedUTF8 bytes: UnsafeRawBufferPointer,
                               emit: (_ byte: UInt8, _ startsWord: Bool) -> Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let (scalar, length) = UTF8Decoding.scalar(in: bytes, at: offset)
            let end = offset + length
            if WordKey.isSeparator(scalar.value) {
                separatorPending = hasWord
            } else {
                var startsWord = !hasWord
                if separatorPending {
                    guard emit(0x20, false) else { return false }
                    separatorPending = false
                    startsWord = true
                }
                hasWord = true
                for index in offset ..< end {
                    guard emit(bytes[index], startsWord && index == offset) else { return false }
                }
            }
            offset = end
        }
        return true
    }

    /// `feed(foldedUTF8:emit:)` of a fold that is the one ASCII byte `byte`, with an `emit`
    /// that cannot stop the feed.
    @inline(__always)
    package mutating func feed(foldedASCII byte: UInt8, emit: (_ byte: UInt8, _ startsWord: Bool) -> Void) {
        guard let (spaceFirst, startsWord) = feed(foldedASCII: byte) else { return }
        if spaceFirst { emit(0x20, false) }
        emit(byte, startsWord)
    }

    /// `feed(foldedASCII:emit:)` returning what it emits instead of calling a closure: `nil`
    /// for a separator (nothing yet), else whether a space comes before `byte` (a word after
    /// a separator run) and whether `byte` starts a word.
    @inline(__always)
    package mutating func feed(foldedASCII byte: UInt8) -> (spaceFirst: Bool, startsWord: Bool)? {
        if WordKey.isSeparator(UInt32(byte)) {
            separatorPending = hasWord
            return nil
        }
        let spaceFirst = separatorPending
        separatorPending = false
        let startsWord = !hasWord || spaceFirst
        hasWord = true
        return (spaceFirst, startsWord)
    }

    /// Ends a query: writes the pending trailing space, if any.
    package mutating func finishQuery(emit: (UInt8) -> Bool) -> Bool {
        guard separatorPending else { return true }
        separatorPending = false
        return emit(0x20)
    }
}
