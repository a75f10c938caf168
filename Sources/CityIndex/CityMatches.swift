// CityMatches.swift: the random-access result of a search.

/// The cities matching one query, in search order (SEARCH.md §3).
///
/// A contiguous run of the index's records: `count` is O(1) and the *i*-th match is O(1),
/// so a UI can show "1,204 cities" and virtualize a list of all of them. Holding it keeps
/// the index alive; it allocates nothing.
public struct CityMatches: RandomAccessCollection, Sendable {
    let contents: IndexContents
    /// The ranks of the matching cities.
    public let ranks: Range<Int>
    let foldedQueryScalarCount: Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { ranks.count }

    /// Match `position`, in `0 ..< count`.
    public subscript(position: Int) -> CityMatch {
        precondition(position >= 0 && position < ranks.count, "match index out of range")
        return CityMatch(city: City(contents: contents, rank: ranks.lowerBound + position),
                         foldedQueryScalarCount: foldedQueryScalarCount)
    }
}
