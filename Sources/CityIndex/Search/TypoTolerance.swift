// TypoTolerance.swift: how many typing mistakes a search forgives (WORDS.md §6).

/// How many edits a search forgives between the query and the start of a name.
///
/// An *edit* is inserting, deleting or replacing one letter, or swapping two adjacent ones
/// (Damerau–Levenshtein distance, optimal string alignment), counted in Unicode scalars of
/// the folded query key (SEARCH.md §1, WORDS.md §1): "seatle", "pheonix", "chicgo",
/// "bogata" and "xeattle" are each one edit from a name's start. A name matches when some
/// prefix of its key is within the budget of the query key.
public enum TypoTolerance: Sendable, Hashable {
    /// Exact matching only (SEARCH.md, WORDS.md §2).
    case none
    /// A budget by the query's length in letters (scalars of its key, spaces not counted):
    /// 0 edits below 4 letters, 1 from 4 letters, 2 from 8 letters.
    case automatic
    /// At most `n` edits whatever the length (clamped to 0…3).
    case maximum(Int)

    /// The most edits any tolerance allows: a budget of 3 already matches most names for
    /// queries of 4 letters, and the search's work grows with the alphabet to this power.
    public static let largestBudget = 3

    /// The edit budget for a query key of `letterCount` letters.
    public func budget(forLetterCount letterCount: Int) -> Int {
        switch self {
        case .none: 0
        case .automatic: letterCount >= 8 ? 2 : letterCount >= 4 ? 1 : 0
        case .maximum(let n): min(max(n, 0), Self.largestBudget)
        }
    }
}
