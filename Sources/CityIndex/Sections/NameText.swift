// NameText.swift: the NAME section, the primary names' UTF-8 (FORMAT.md §7.2).

/// The `NAME` section: the UTF-8 bytes of the primary names, referenced by `CITY` records.
/// Any size is valid; a reference that leaves the section reads as an empty name, which only
/// a damaged file has and `verify()` reports.
struct NameText {
    private let bytes: ByteView

    /// - Complexity: O(1).
    init(validating section: ByteView) { bytes = section }

    /// The bytes at `location`, or an empty span when they lie outside the section. O(1).
    @inline(__always)
    func name(at location: (offset: Int, byteCount: Int)) -> ByteView {
        bytes.slice(offset: location.offset, length: location.byteCount) ?? bytes.empty
    }

    /// Starts loading the first bytes of the name at `location` (a hint). O(1).
    @inline(__always)
    func prefetch(at location: (offset: Int, byteCount: Int)) { bytes.prefetch(at: location.offset) }

    /// Whether `location` lies inside the section.
    func contains(_ location: (offset: Int, byteCount: Int)) -> Bool {
        bytes.slice(offset: location.offset, length: location.byteCount) != nil
    }
}
