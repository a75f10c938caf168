// ClassTrie.swift: strategy 4, an in-memory trie of class nodes with child dictionaries.

/// The trie a first implementation would write: one class node per folded byte, children in a
/// dictionary, the cities whose key ends at a node stored there. A query walks m nodes,
/// then collects the whole subtree in order (sorting each node's child keys): O(m + matches).
public final class ClassTrie: SearchStrategy {
    public static let name = "class-node trie"

    final class Node {
        var children: [UInt8: Node] = [:]
        var cities: [Int] = []   // indices into `cities`, in search order
    }

    let root = Node()
    let cities: [DecodedCity]

    public init(cities unsorted: [DecodedCity]) {
        let keyed = KeyedCity.searchOrdered(unsorted)
        cities = keyed.map(\.city)
        for (index, city) in keyed.enumerated() {
            var node = root
            for byte in city.key {
                if let child = node.children[byte] { node = child } else {
                    let child = Node()
                    node.children[byte] = child
                    node = child
                }
            }
            node.cities.append(index)
        }
    }

    public func search(_ query: String, limit: Int) -> SearchAnswer {
        let folded = FoldedQuery(query)
        var node = root
        for byte in folded.bytes {
            guard let child = node.children[byte] else { return folded.answer(count: 0, firstMatches: []) }
            node = child
        }
        var matches: [Int] = []
        var stack = [node]
        while let next = stack.popLast() {
            matches.append(contentsOf: next.cities)
            for byte in next.children.keys.sorted(by: >) { stack.append(next.children[byte]!) }
        }
        return folded.answer(count: matches.count, firstMatches: matches.prefix(limit).map { cities[$0] })
    }
}
