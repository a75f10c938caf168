// QueryText.swift: the part of a query that searches use (SEARCH.md §2, WORDS.md §2).

extension StringProtocol {
    /// The query's scalars after its leading white space (Unicode White_Space), which no
    /// search mode matches on; trailing white space is kept (it asks for a following word).
    /// The one place that trims queries: the reader, the session layer and the tools use it.
    /// - Complexity: O(leading white space).
    package var scalarsAfterLeadingWhiteSpace: UnicodeScalarView.SubSequence {
        unicodeScalars.drop { $0.properties.isWhitespace }
    }
}
