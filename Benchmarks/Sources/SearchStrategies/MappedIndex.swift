// MappedIndex.swift: strategy 6, CityIndex.
import CityIndex

/// The memory-mapped CityIndex file.
public final class MappedIndex: SearchStrategy {
    public static let name = "CityIndex (mapped)"
    public let index: CityIndex

    public init(path: String) throws { index = try CityIndex(path: path) }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        guard let matches = try? index.search(query) else { return SearchAnswer(count: -1, ids: [], highlights: []) }
        var ids: [Int] = []
        var highlights: [Int] = []
        ids.reserveCapacity(limit)
        highlights.reserveCapacity(limit)
        for match in matches.prefix(limit) {
            ids.append(match.id)
            highlights.append(match.highlightUTF16Range.count)
        }
        return SearchAnswer(count: matches.count, ids: ids, highlights: highlights)
    }
}
