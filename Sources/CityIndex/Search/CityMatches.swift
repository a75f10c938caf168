// CityMatches.swift: the random-access result of a search.

/// The cities matching one query, in the order the search asked for.
///
/// For the default search (prefix, alphabetical) this is a contiguous run of the index's
/// records: `count` is O(1), the *i*-th match is O(1) and nothing is allocated, so a UI can
/// show "1,204 cities" and virtualize a list of all of them. Word matching and population
/// order hold their matches in an array. Holding it keeps the index alive.
public struct CityMatches: RandomAccessCollection, Sendable {
    /// The last stage's candidates (`SearchRun`).
    let candidates: SearchCandidates

    /// The result of `candidates` (whose first names `SearchCandidates.init` prefetched).
    init(_ candidates: SearchCandidates) {
        self.candidates = candidates
    }

    var contents: IndexContents { candidates.contents }
    var storage: SearchCandidates.Storage { candidates.storage }
    var query: MatchQuery { candidates.query }
    var qualifiedQuery: MatchQuery? { candidates.qualifiedQuery }

    /// How many cities match the query in all: `count`, or more when the search was
    /// limited (population order returns the top `limit`). O(1).
    public var totalCount: Int { candidates.totalCount }

    /// The first position: 0.
    public var startIndex: Int { 0 }
    /// One past the last position: `count`, the matches held (at most the search's `limit`). O(1).
    public var endIndex: Int { candidates.count }

    /// The ranks of a contiguous result (prefix matching in alphabetical order), else `nil`.
    package var rankRange: Range<Int>? {
        if case .ranks(let ranks) = storage { return ranks }
        return nil
    }

    /// Match `position`, in `0 ..< count`.
    public subscript(position: Int) -> CityMatch { candidates[position] }
}
