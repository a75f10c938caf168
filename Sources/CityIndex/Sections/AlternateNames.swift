// AlternateNames.swift: the ALTN section, each city's alternate names (FORMAT.md §7.5).

/// The `ALTN` section: a header, where each city's alternate names start in the text (a
/// 32-bit start per block of 64 ranks plus a bit-packed distance from it per rank), then the
/// text: each city's alternate names as (length varint, coded name) runs; a city's names
/// are its slots 1, 2, ….
///
/// Invariant (checked by `init(validating:cityCount:)`): the section holds exactly the header,
/// the block starts, the packed starts of `cityCount + 1` ranks and `textByteCount` bytes of
/// text, so every start read is in bounds. The starts and runs are not trusted: a damaged run
/// reads as fewer names; `verify()` checks them.
struct AlternateNames {
    private let blockStarts: ByteView
    private let starts: PackedArray
    /// The text part.
    let text: ByteView

    /// - Complexity: O(1).
    init(validating section: ByteView, cityCount: Int) throws(IndexFileError) {
        let textByteCount = UInt64(section.uint32(at: 0) ?? 0)
        let startsOffset = FormatConstants.alternatePackedStartsOffset(cityCount: cityCount)
        let startsWidth = Int(section.uint8(at: startsOffset) ?? 0)
        let startsByteCount = PackedArray.byteCount(count: cityCount + 1, valueWidth: startsWidth)
        let textStart = startsOffset + startsByteCount
        try section.requireByteCount(UInt64(textStart) + textByteCount, of: .alternateNames)
        blockStarts = section.slice(uncheckedOffset: FormatConstants.alternateHeaderByteCount,
                                    length: startsOffset - FormatConstants.alternateHeaderByteCount)
        starts = try PackedArray(validating: section.slice(uncheckedOffset: startsOffset, length: startsByteCount),
                                 count: cityCount + 1, of: .alternateNames)
        text = section.slice(uncheckedOffset: textStart, length: Int(textByteCount))
    }

    /// Where the alternate names of the city at `rank` begin in `text` (not checked against
    /// it); `rank` in `0 ... cityCount` for the end offset. O(1): two reads.
    @inline(__always)
    func textOffset(ofRank rank: Int) -> Int {
        Int(blockStarts.uint32(uncheckedAt: rank / FormatConstants.alternateRanksPerBlock * 4)) + Int(starts[rank])
    }

    /// Starts loading where the alternate names of the city at `rank` start (a hint). O(1).
    @inline(__always)
    func prefetchStart(ofRank rank: Int) {
        blockStarts.prefetch(at: rank / FormatConstants.alternateRanksPerBlock * 4)
        starts.prefetch(rank)
    }

    /// Starts loading the alternate names of the city at `rank` up to name `slot` (a hint; its
    /// start is read): the first cache line, and the next one for a later slot, which the
    /// read walks to (an average name takes about 10 coded bytes). O(1).
    @inline(__always)
    func prefetchText(ofRank rank: Int, slot: Int) {
        let start = textOffset(ofRank: rank)
        text.prefetch(at: start)
        if slot > 3 { text.prefetch(at: start + 64) }
    }

    /// The bytes of `text` holding the alternate names of the city at `rank`; empty on a
    /// damaged table. O(1).
    func block(ofRank rank: Int) -> ByteView {
        let first = textOffset(ofRank: rank), end = textOffset(ofRank: rank + 1)
        guard first <= end, let block = text.slice(offset: first, length: end - first) else { return text.empty }
        return block
    }

    /// Calls `body` with each alternate name of the city at `rank` (slots 1, 2, …) until it
    /// returns false. Stops at the first malformed entry (a damaged file). O(block size).
    func forEach(ofRank rank: Int, _ body: (_ slot: Int, _ name: ByteView) -> Bool) {
        let block = block(ofRank: rank)
        var offset = 0
        var slot = 1
        while let (start, length) = Self.entry(in: block, at: offset) {
            guard body(slot, block.slice(uncheckedOffset: start, length: length)) else { return }
            offset = start + length
            slot += 1
        }
    }

    /// The coded name whose length varint starts at `offset` of `block`: where its bytes start
    /// and how many there are; `nil` at the block's end or at a malformed entry (a length
    /// varint that is cut or too long, or bytes past the block). O(1).
    @inline(__always)
    private static func entry(in block: ByteView, at offset: Int) -> (start: Int, length: Int)? {
        guard offset < block.count else { return nil }
        let bytes = block.buffer
        // Almost always one byte: names under 128 coded bytes.
        var (length, start) = (Int(bytes[offset]), offset + 1)
        if length >= 0x80 {
            guard let (value, next) = block.varint(at: offset) else { return nil }
            (length, start) = (Int(value), next)
        }
        return length <= block.count - start ? (start, length) : nil
    }

    /// The bytes of alternate name `slot` (1, 2, …) of the city at `rank`; empty when the city
    /// has no such slot (or a damaged run ends before it). O(size of the city's alternates
    /// before the slot): one length varint read and skipped per earlier name, the walk of
    /// `forEach` without its closure and per-name slice.
    func name(ofRank rank: Int, slot: Int) -> ByteView {
        let block = block(ofRank: rank)
        var offset = 0
        var index = 1
        while let (start, length) = Self.entry(in: block, at: offset) {
            if index == slot { return block.slice(uncheckedOffset: start, length: length) }
            offset = start + length
            index += 1
        }
        return text.empty
    }

    /// How many alternate names the city at `rank` has. O(size of its alternates).
    func count(ofRank rank: Int) -> Int {
        var count = 0
        forEach(ofRank: rank) { _, _ in
            count += 1
            return true
        }
        return count
    }
}
