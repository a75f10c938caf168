// NameTextWriter.swift: the `NAME` section (FORMAT.md §7.2), the writing twin of `NameText`.

/// Stores the primary names in search order and gives each its offset in `NAME`.
///
/// Identical names are stored once: they fold to identical keys, so comparing within a run of
/// equal keys (`startRun`) finds every duplicate. The last name placed is held back
/// (`pendingName`, at `text.count`): when the next one starts with it, the longer one takes
/// its place and both point at it; when it starts with the next one, the next one points into
/// it. Names in search order are sorted by folded key, so "San José" is soon followed by
/// "San José de Mayo" (on the 209k list 6.5% of the text is such prefixes).
///
/// Memory: the names of one run of equal keys.
struct NameTextWriter {
    private var text: SpillingByteBuffer
    /// The name last placed, not written yet.
    private var pendingName: [UInt8] = []
    /// The names stored for the current run of equal keys, and their offsets.
    private var runNames: [(name: [UInt8], offset: Int)] = []

    init(directory: String) throws(IndexBuildError) {
        text = SpillingByteBuffer(file: try ScratchFile(directory: directory))
    }

    /// Starts a run of equal keys: names of earlier runs cannot be equal to the ones to come.
    mutating func startRun() {
        runNames.removeAll(keepingCapacity: true)
    }

    /// The offset of `name` in `NAME`, storing it unless the current run has it already.
    /// O(its length × the run's distinct names).
    mutating func offset(storing name: UnsafeRawBufferPointer) throws(IndexBuildError) -> Int {
        if let existing = runNames.first(where: { $0.name.elementsEqual(name) }) { return existing.offset }
        if name.starts(with: pendingName) {
            pendingName = Array(name)
        } else if !pendingName.starts(with: name) {
            try text.append(pendingName)
            pendingName = Array(name)
        }
        let offset = text.count
        runNames.append((Array(name), offset))
        return offset
    }

    /// The section: the text (UTF-8, no separators).
    mutating func finish() throws(IndexBuildError) -> [SectionPart] {
        try text.append(pendingName)
        try text.finish()
        return [.file(text.file)]
    }
}
