// ResultOrder.swift: the order of a search's results, alphabetical or by population.

/// The order of a search's results.
public enum ResultOrder: String, Sendable, CaseIterable {
    /// SEARCH.md §3: folded name, then country, then id (the default).
    case alphabetical
    /// Largest population first (unknown counts as 0), ties in alphabetical order.
    case population
}
