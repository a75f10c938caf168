// MatchMode.swift: how a query matches a city's names, prefix or words.

/// How a query matches a city's names.
public enum MatchMode: String, Sendable, CaseIterable {
    /// SEARCH.md: the folded primary name starts with the folded query (the default).
    case prefix
    /// WORDS.md: the query's word key starts a word of the primary name or of an alternate
    /// name, punctuation-insensitive and across words ("york" finds New York, "saint etienne"
    /// finds Saint-Étienne, "munich" finds München).
    case words
}
