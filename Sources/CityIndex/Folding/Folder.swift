// Folder.swift: folds whole strings with a fold table held in its own storage.

/// Folds strings with a fold table, keeping the table's bytes alive. The builder folds
/// every name through this type, so names fold exactly as the reader folds queries.
package struct Folder: Sendable {
    private let storage: IndexFileBytes
    private let fastPathStorage: IndexFileBytes
    package let table: FoldTable

    /// Validates `sectionBytes` (a `FOLD` section) and keeps a copy.
    package init(foldSectionBytes sectionBytes: [UInt8]) throws(IndexFileError) {
        storage = IndexFileBytes(copying: sectionBytes)
        (table, fastPathStorage) = try FoldTable.validating(storage.bytes)
        try table.validateEntries()
    }

    /// Appends the UTF-8 bytes of `fold(text)` (SEARCH.md §1) to `output`. O(n log f).
    package func appendFolded(_ text: some Sequence<Unicode.Scalar>, to output: inout [UInt8]) {
        for scalar in text {
            table.withFoldedUTF8(of: scalar) { output.append(contentsOf: $0) }
        }
    }

    /// `fold(text)` as a string.
    package func fold(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendFolded(text.unicodeScalars, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
