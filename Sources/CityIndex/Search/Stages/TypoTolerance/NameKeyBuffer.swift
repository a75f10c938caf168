// NameKeyBuffer.swift: the search key of one stored name, read into buffers a walk reuses.

/// The search key of one stored name, loaded in place: the folded primary name of a city
/// (what `NODE` stores it under, FORMAT.md §6), or the word key of one of its names and where
/// its words start (each starts a suffix key of `WNOD`, WORDS.md §1).
///
/// A typo-tolerant walk reads a few thousand keys per query (`TypoTolerantTrieWalk`), most of
/// them of distinct names; this reads each without allocating, reference counting or checking
/// an array's uniqueness once its buffers have grown to the longest name met. The bytes are
/// produced by the same `FoldTable` and `WordKeyEncoder` as everywhere else, so they are the
/// builder's keys byte for byte.
///
/// Invariant: `bytes[0 ..< count]` is the key last loaded; `wordStarts[0 ..< wordCount]` its
/// word starts, increasing and below `count` (none after `loadFoldedName`). One instance
/// serves one walk on one thread.
/// - Complexity: a load is O(*n*) for a name of *n* bytes (O(log *f*) more per non-ASCII
///   scalar), plus the decoding of an alternate name (O(size of the city's alternates before
///   it), `AlternateNames.name(ofRank:slot:)`).
final class NameKeyBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private(set) var wordStarts: UnsafeMutablePointer<Int>
    private(set) var wordCount = 0
    private var wordCapacity: Int
    /// Where an alternate name is decoded before it is folded.
    private var decoded: UnsafeMutableRawPointer
    private var decodedCapacity: Int
    private let contents: IndexContents
    private let table: FoldTable

    init(contents: IndexContents) {
        self.contents = contents
        table = contents.foldTable
        capacity = 256
        bytes = .allocate(capacity: capacity)
        wordCapacity = 32
        wordStarts = .allocate(capacity: wordCapacity)
        decodedCapacity = 512
        decoded = .allocate(byteCount: decodedCapacity, alignment: 8)
    }

    deinit {
        bytes.deallocate()
        wordStarts.deallocate()
        decoded.deallocate()
    }

    /// Loads the folded primary name of the city at `rank`.
    func loadFoldedName(ofRank rank: Int) {
        count = 0
        wordCount = 0
        var folded = FoldedBytes(of: contents.primaryName(ofRank: rank).buffer, table: table)
        while let byte = folded.next() { append(byte) }
    }

    /// Loads the word key of name `slot` (0: the primary name; 1…: an alternate) of the city
    /// at `rank`, and its word starts. A slot that does not exist or does not decode (a
    /// damaged file) loads an empty key.
    func loadWordKey(ofRank rank: Int, slot: Int) {
        if slot == 0 {
            loadWordKey(ofName: contents.primaryName(ofRank: rank).buffer)
            return
        }
        let coded = contents.alternates.name(ofRank: rank, slot: slot)
        let needed = NameSymbols.decodingCapacity(ofCodedByteCount: coded.count)
        if needed > decodedCapacity {
            decoded.deallocate()
            decodedCapacity = max(needed, 2 * decodedCapacity)
            decoded = .allocate(byteCount: decodedCapacity, alignment: 8)
        }
        let length = contents.nameSymbols.decode(coded.buffer, into: UnsafeMutableRawBufferPointer(start: decoded, count: decodedCapacity)) ?? 0
        loadWordKey(ofName: UnsafeRawBufferPointer(start: decoded, count: length))
    }

    /// Loads the word key of `name` (UTF-8, a name already read or decoded) and its word starts.
    func loadWordKey(ofName name: UnsafeRawBufferPointer) {
        count = 0
        wordCount = 0
        encodeWordKey(of: name)
    }

    /// The key loaded: `bytes[0 ..< count]`, valid until the next load.
    var key: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    /// Whether `bytes[start ..< start + prefix.count]` equals `prefix` (and lies in the key).
    @inline(__always)
    func matches(_ prefix: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard count - start >= prefix.count else { return false }
        for index in 0 ..< prefix.count where bytes[start + index] != prefix[index] { return false }
        return true
    }

    /// `WordKey.encode(utf8:with:emit:)` into these buffers.
    private func encodeWordKey(of text: UnsafeRawBufferPointer) {
        WordKey.encode(utf8: text, with: table) { byte, startsWord in
            if startsWord { appendWordStart() }
            append(byte)
        }
    }

    @inline(__always)
    private func append(_ byte: UInt8) {
        if count == capacity { grow() }
        bytes[count] = byte
        count += 1
    }

    @inline(__always)
    private func appendWordStart() {
        if wordCount == wordCapacity {
            let larger = UnsafeMutablePointer<Int>.allocate(capacity: 2 * wordCapacity)
            larger.update(from: wordStarts, count: wordCount)
            wordStarts.deallocate()
            wordStarts = larger
            wordCapacity *= 2
        }
        wordStarts[wordCount] = count
        wordCount += 1
    }

    private func grow() {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * capacity)
        larger.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = larger
        capacity *= 2
    }
}
