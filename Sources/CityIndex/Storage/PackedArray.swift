// PackedArray.swift: a section of equal-width bit-packed integers behind a width header
// (FORMAT.md §1: IDIX, POPL, WPST).

/// `PackedArray --> width:u8, secondWidth:u8, reserved:u16 (0), count:u32, words of count ×
/// (width + secondWidth) bits`: value *i* holds bits `i·w ..< (i+1)·w` of `PackedBits` for the total
/// width *w*. One width for `IDIX` (ranks) and `POPL` (populations); two for `WPST`, whose
/// value is a rank and a name slot side by side.
///
/// Invariant (checked by `init(validating:count:)`): the widths are at most 32 each and the
/// section holds exactly the header and `count` values, so every read in `0 ..< count` is in
/// bounds and unchecked; a count read from the header (not given by the caller) is at most
/// 8 × the section's bytes (values of one bit or more) or `maximumZeroWidthCount` (width 0).
struct PackedArray {
    /// The widths from the header, and their sum: the bits per value.
    let width: Int
    let secondWidth: Int
    let valueWidth: Int
    let count: Int
    private let bits: PackedBits

    /// The most values a section that states its own count may hold at width 0 (FORMAT.md §1):
    /// as many as the words of the longest name can be.
    static let maximumZeroWidthCount = 65_536

    /// The section size for `count` values of `valueWidth` bits. O(1).
    package static func byteCount(count: Int, valueWidth: Int) -> Int {
        FormatConstants.packedHeaderByteCount + PackedBits.byteCount(bitCount: count * valueWidth)
    }

    /// - Parameter count: how many values the section must hold (`cityCount` for `IDIX` and
    ///   `POPL`), or `nil` when any count is valid (`WPST`).
    /// - Complexity: O(1).
    init(validating section: ByteView, count requiredCount: Int?, of kind: SectionKind) throws(IndexFileError) {
        let width = Int(section.uint8(at: 0) ?? 0)
        let secondWidth = Int(section.uint8(at: 1) ?? 0)
        let valueWidth = width + secondWidth
        let header = FormatConstants.packedHeaderByteCount
        let count = requiredCount ?? Int(section.uint32(at: 4) ?? 0)
        // A count the caller did not bound is bounded by the section's bytes at a width of one
        // bit or more; at width 0 (all values 0: `WPST` of a one-city list, one posting per
        // word of its name) by `maximumZeroWidthCount`, not 2³² − 1 claimed in 8 bytes.
        let isBoundedByBytes = requiredCount != nil || valueWidth > 0 || count <= Self.maximumZeroWidthCount
        let expected = Self.byteCount(count: count, valueWidth: isBoundedByBytes ? valueWidth : 1)
        guard section.count >= header, width <= 32, secondWidth <= 32, section.uint32(at: 4) == UInt32(truncatingIfNeeded: count),
              isBoundedByBytes, section.count == expected else {
            throw .sectionSizeMismatch(section: kind, byteCount: UInt64(section.count), expectedByteCount: UInt64(expected))
        }
        self.width = width
        self.secondWidth = secondWidth
        self.valueWidth = valueWidth
        self.count = count
        bits = PackedBits(words: section.slice(uncheckedOffset: header, length: section.count - header))
    }

    /// Value `index` (in `0 ..< count`), both widths together. O(1).
    @inline(__always)
    subscript(index: Int) -> UInt64 { bits.field(atBit: index * valueWidth, width: valueWidth) }

    /// Calls `body` with each value of `indices` (within `0 ..< count`), in order: one pass
    /// over the bits (`PackedBits.forEachField`), cheaper per value than the subscript. O(*k*).
    @inline(__always)
    func forEach(in indices: Range<Int>, _ body: (UInt64) -> Void) {
        bits.forEachField(fromBit: indices.lowerBound &* valueWidth, count: indices.count, width: valueWidth, body)
    }

    /// Starts loading value `index` (a hint). O(1).
    @inline(__always)
    func prefetch(_ index: Int) { bits.prefetch(atBit: index * valueWidth) }
}
