// BuildLimits.swift: the 32-bit limits of the format, checked before anything can overflow.
import CityIndex

/// The sizes the index format can address (FORMAT.md §10), checked while building so that a
/// list too large for one index fails with an error that names the limit (and, for the text
/// limits, the record where it was crossed) instead of trapping on an overflow.
/// Tests lower them to reach them with small lists.
package struct BuildLimits: Sendable {
    /// Bytes of text in each of the builder's arenas (names, folded keys, word keys: 32-bit
    /// offsets), and entries in its tables.
    package var maximumArenaByteCount = Int(UInt32.max)
    /// Bytes of a section whose contents are addressed by 32-bit offsets (`NAME`, `ALTN`
    /// text, the top lists).
    package var maximumSectionByteCount = Int(UInt32.max)
    /// Bytes of a trie section (`NODE`, `WNOD`): a child reference holds a distance shifted
    /// left by one bit in at most 32 bits (FORMAT.md §6).
    package var maximumTrieSectionByteCount = Int(Int32.max)
    /// Largest child reference of a leaf held inline by its parent (FORMAT.md §6: at most 4
    /// bytes); a leaf whose reference would be larger (hundreds of millions of entries
    /// from its parent's first) is stored as a node instead.
    package var largestInlineChildReference = Int(UInt32.max)
    /// Distinct (country, region code) pairs (`REGN`'s region numbers are 16 bits).
    package var maximumRegionCount = FormatConstants.maximumRegionCount

    package init() {}
}
