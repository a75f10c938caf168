// TypoHighlight.swift: what a typo-tolerant match highlights (WORDS.md §6).

/// The part of a key a typo-tolerant match covers: its longest prefix within the match's
/// edits of the query key (so "londn" highlights all of "London", one insertion away, not
/// "Lond", one deletion away).
enum TypoHighlight {
    /// The longest prefix of `key` (UTF-8) whose distance to `query` (scalars) is at most
    /// `edits`, in bytes and in scalars, or `nil` when none is. A trailing space of the
    /// prefix is not counted (it separates words, WORDS.md §4).
    /// - Complexity: O(*k*·*n*) for a key of *k* scalars and a query of *n*; stops where no
    ///   longer prefix can be within `edits`.
    static func longestPrefix(of key: some Sequence<UInt8>, within edits: Int,
                              of query: [UInt32]) -> (byteCount: Int, scalarCount: Int)? {
        longestPrefix(of: key, using: EditDistanceRows(query: query, budget: edits))
    }

    /// `longestPrefix(of:within:of:)` with the automaton of the query and the edits given:
    /// `rows`, which must hold an empty text, and holds one again on return (so that one
    /// automaton serves every word of a name: no allocation per word).
    static func longestPrefix(of key: some Sequence<UInt8>, using rows: EditDistanceRows) -> (byteCount: Int, scalarCount: Int)? {
        let start = rows.mark
        defer { rows.reset(to: start) }
        let edits = rows.budget
        var longest: (byteCount: Int, scalarCount: Int)? = rows.distance <= edits ? (0, 0) : nil
        var byteCount = 0, scalarCount = 0
        var lastByte: UInt8 = 0
        for byte in key {
            if rows.isAtScalarBoundary && rows.isDead { break }
            byteCount += 1
            lastByte = byte
            guard rows.append(byte) else { continue }
            scalarCount += 1
            if rows.distance <= edits {
                longest = lastByte == 0x20 ? (byteCount - 1, scalarCount - 1) : (byteCount, scalarCount)
            }
        }
        return longest
    }
}
