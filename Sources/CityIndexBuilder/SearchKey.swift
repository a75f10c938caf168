// SearchKey.swift: SEARCH.md folding for code outside the index (tools, comparisons).
import CityIndex

/// The search key of SEARCH.md §1 computed with the same table `build-index` writes, for
/// programs that compare other search strategies with the index (`Benchmarks/`). Not part of
/// the public interface: import it with `@_spi(Benchmarks) import CityIndexBuilder`.
@_spi(Benchmarks) public enum SearchKey {
    private static let folder = try! IndexBuilder.folder()

    /// `fold(text)`: the UTF-8 bytes an index compares.
    public static func foldedBytes(_ text: some StringProtocol) -> [UInt8] {
        var bytes: [UInt8] = []
        folder.appendFolded(text.unicodeScalars, to: &bytes)
        return bytes
    }

    /// Replaces the contents of `output` with the folded query of SEARCH.md §2, reusing its
    /// capacity (no allocation once it is large enough), and returns the folded query's length
    /// in scalars (for highlights). O(query length × log *f*).
    public static func foldQuery(_ query: String, into output: inout [UInt8]) -> Int {
        output.removeAll(keepingCapacity: true)
        var scalarCount = 0
        for scalar in query.scalarsAfterLeadingWhiteSpace {
            folder.table.withFoldedUTF8(of: scalar) { bytes in
                for byte in bytes where byte & 0xC0 != 0x80 { scalarCount += 1 }
                output.append(contentsOf: bytes)
            }
        }
        return scalarCount
    }

    /// The highlight of SEARCH.md §4 for the UTF-8 `name`, as a length in UTF-16 code units.
    /// Allocates nothing.
    public static func highlightUTF16Length(nameUTF8 name: UnsafeRawBufferPointer, foldedQueryScalarCount: Int) -> Int {
        folder.table.highlightUTF16Length(ofName: name, foldedQueryScalarCount: foldedQueryScalarCount)
    }

    /// The highlight of SEARCH.md §4 for `name` and a folded query of `foldedQueryScalarCount`
    /// scalars, as a length in UTF-16 code units (the highlight starts at 0).
    public static func highlightUTF16Length(name: String, foldedQueryScalarCount: Int) -> Int {
        var name = name
        return name.withUTF8 { highlightUTF16Length(nameUTF8: UnsafeRawBufferPointer($0), foldedQueryScalarCount: foldedQueryScalarCount) }
    }
}
