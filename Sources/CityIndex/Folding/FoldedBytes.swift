// FoldedBytes.swift: the folded key of a stored name, one byte at a time (FORMAT.md §6.1).

/// The UTF-8 bytes of `fold(scalar)` for one scalar, kept by value: either a span of the fold
/// table's outputs (in the mapped file) or at most 16 bytes inline.
struct ScalarFold {
    var tableOutput: ByteView?
    var inlineBytes: (UInt64, UInt64) = (0, 0)
    var count = 0

    init() {}

    init(tableOutput: ByteView) {
        self.tableOutput = tableOutput
        count = tableOutput.count
    }

    /// Byte `index` (in `0 ..< count`).
    @inline(__always)
    subscript(index: Int) -> UInt8 {
        if let tableOutput { return tableOutput.uint8(uncheckedAt: index) }
        return withUnsafeBytes(of: inlineBytes) { $0[index] }
    }
}

/// Pulls the bytes of `fold(name)` (SEARCH.md §1: the key `NODE` stores a city under) from a
/// name's UTF-8, folding one scalar at a time, so that a search compares its query with a
/// stored key without materializing it. Allocates nothing.
///
/// Ill-formed UTF-8 (only in a damaged file) reads as U+FFFD, as everywhere in the reader.
/// - Complexity: O(1) per byte for ASCII and per scalar below U+0250, O(log *f*) per other scalar.
struct FoldedBytes: IteratorProtocol {
    private let name: UnsafeRawBufferPointer
    private let table: FoldTable
    private var position = 0
    private var fold = ScalarFold()
    private var foldIndex = 0

    init(of name: UnsafeRawBufferPointer, table: FoldTable) {
        self.name = name
        self.table = table
    }

    @inline(__always)
    mutating func next() -> UInt8? {
        // Fast path: an ASCII byte that folds to one byte (letters, digits, most punctuation).
        if foldIndex == fold.count, position < name.count {
            let byte = name[position]
            if byte < 0x80, let folded = table.singleByteFold(ofASCII: byte) {
                position += 1
                return folded
            }
        }
        while foldIndex == fold.count {
            guard position < name.count else { return nil }
            let (scalar, length) = UTF8Decoding.scalar(in: name, at: position)
            position += length
            fold = table.scalarFold(of: scalar)
            foldIndex = 0
        }
        defer { foldIndex += 1 }
        return fold[foldIndex]
    }
}
