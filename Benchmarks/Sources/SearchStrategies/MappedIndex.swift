// MappedIndex.swift: strategy 6, CityIndex (and its word and population modes).
import CityIndex

/// The memory-mapped CityIndex file, searched in one of its modes: by default SEARCH.md
/// (prefix, alphabetical, the mode compared with the other strategies); word matching
/// (WORDS.md) and population order are timed alongside to show what they cost.
public final class MappedIndex: SearchStrategy {
    public static let name = "CityIndex (mapped)"
    public let index: CityIndex
    private let matching: MatchMode
    private let order: ResultOrder
    private let typos: TypoTolerance
    /// Where the searching user is (`search(…, near:)`), or nil.
    private let near: Coordinate?

    /// `typoSearchThreads`: the threads of one typo-tolerant search (`CityIndex.typoSearchThreads`;
    /// nil: the library's default, 2; city-server uses 1).
    public init(path: String, matching: MatchMode = .prefix, order: ResultOrder = .alphabetical,
                typos: TypoTolerance = .none, near: Coordinate? = nil, typoSearchThreads: Int? = nil) throws {
        var index = try CityIndex(path: path)
        if let typoSearchThreads { index.typoSearchThreads = typoSearchThreads }
        self.index = index
        self.matching = matching
        self.order = order
        self.typos = typos
        self.near = near
    }

    /// The table name of a mode.
    public static func name(matching: MatchMode, order: ResultOrder, typos: TypoTolerance = .none) -> String {
        guard matching != .prefix || order != .alphabetical || typos != .none else { return name }
        return "CityIndex --match \(matching) --rank \(order)" + (typos == .automatic ? " --typos auto" : "")
    }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let found: CityMatches?
        if let near {
            found = try? index.search(query, matching: matching, order: order, limit: limit, typos: typos, near: near)
        } else if matching == .prefix && order == .alphabetical && typos == .none {
            found = try? index.search(query)
        } else {
            found = try? index.search(query, matching: matching, order: order, limit: limit, typos: typos)
        }
        guard let matches = found else { return SearchAnswer(count: -1, ids: [], highlights: []) }
        var ids: [Int] = []
        var highlights: [Int] = []
        ids.reserveCapacity(limit)
        highlights.reserveCapacity(limit)
        for match in matches.prefix(limit) {
            ids.append(match.id)
            highlights.append(match.highlightUTF16Range.count)
        }
        return SearchAnswer(count: matches.totalCount, ids: ids, highlights: highlights)
    }
}
