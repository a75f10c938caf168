// SearchOptions.swift: the matching modes and result orders a search can use.

/// How a query matches a city's names.
public enum MatchMode: String, Sendable, CaseIterable {
    /// SEARCH.md: the folded primary name starts with the folded query (the default).
    case prefix
    /// WORDS.md: the query's word key starts a word of the primary name or of an alternate
    /// name, punctuation-insensitive and across words ("york" finds New York, "saint etienne"
    /// finds Saint-Étienne, "munich" finds München).
    case words
}

/// The order of a search's results.
public enum ResultOrder: String, Sendable, CaseIterable {
    /// SEARCH.md §3: folded name, then country, then id (the default).
    case alphabetical
    /// Largest population first (unknown counts as 0), ties in alphabetical order.
    case population
}
