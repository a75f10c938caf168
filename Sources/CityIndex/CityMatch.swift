// CityMatch.swift: one search result and its highlight.

/// A city that matched a query, with the part of its name the query covered.
///
/// Forwards the city's properties (`match.name`, `match.id`, …) to `city`.
@dynamicMemberLookup
public struct CityMatch: Sendable {
    /// The matching city.
    public let city: City
    /// How many scalars the folded query has (SEARCH.md §4 measures the highlight with it).
    let foldedQueryScalarCount: Int

    public subscript<Value>(dynamicMember keyPath: KeyPath<City, Value>) -> Value { city[keyPath: keyPath] }

    /// The highlighted part of the name in UTF-16 code units (like `NSRange`): from the
    /// start to the end of the shortest run of leading scalars whose folds are at least as
    /// long as the folded query, extended over scalars that fold to nothing (SEARCH.md §4).
    /// Empty for the empty query.
    ///
    /// - Complexity: O(*h*) scalars of the highlighted part (O(1) each for ASCII, O(log *f*)
    ///   otherwise, *f* = fold table entries); allocates nothing.
    public var highlightUTF16Range: Range<Int> { 0 ..< highlightUTF16Length }

    /// The highlighted part as a range of `name`'s indices.
    public var highlightRange: Range<String.Index> {
        let name = city.name
        let end = String.Index(utf16Offset: min(highlightUTF16Length, name.utf16.count), in: name)
        return name.startIndex ..< end
    }

    private var highlightUTF16Length: Int {
        city.contents.foldTable.highlightUTF16Length(ofName: city.nameBytes.buffer,
                                                     foldedQueryScalarCount: foldedQueryScalarCount)
    }
}

extension CityMatch: CustomStringConvertible {
    public var description: String { "\(city) highlight \(highlightUTF16Range)" }
}
