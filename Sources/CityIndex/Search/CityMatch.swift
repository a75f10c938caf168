// CityMatch.swift: one search result, the name that matched and its highlight.

/// A city that matched a query, the name that matched (the primary name or an alternate),
/// and the part of that name the query covered.
///
/// Forwards the city's properties (`match.name`, `match.id`, …) to `city`. A UI shows
/// `name` and, when `matchedAlternateName` is set, "matched Munich" with the highlight.
@dynamicMemberLookup
public struct CityMatch: Sendable, Identifiable {
    /// The matching city.
    public let city: City
    /// Which name matched: 0 the primary name, *s* the city's alternate name *s*.
    let slot: Int
    let query: MatchQuery
    /// How many edits (typos) separate the query from the start of the matched name's key:
    /// 0 for an exact match, and always 0 without typo tolerance (WORDS.md §6). A qualified
    /// match (WORDS.md §10) adds the edits between its place words and the place they name.
    public let editCount: Int
    /// The edits of the name alone (`editCount` less a qualifier's): what the highlight covers.
    let nameEditCount: Int

    /// Which of the query's keys matched (abbreviation variants, WORDS.md §7).
    let variant: Int

    /// Whether the query's words matched words of the name with other words between them
    /// ("rio janeiro" → Rio de Janeiro; WORDS.md §9). Only a forgiving word search (`typos`
    /// other than `.none`) matches so, as a fallback when other matches are few.
    public let skipsWords: Bool

    /// Whether population order demoted the match (WORDS.md §5: on a later word of an
    /// alternate name, or an alternate that looks machine-made).
    package let isDemoted: Bool

    /// Why population order moved the match after others (WORDS.md §13), if it did.
    package let overshadowing: Overshadowing?

    init(city: City, slot: Int, query: MatchQuery, editCount: Int = 0, nameEditCount: Int? = nil, variant: Int = 0,
         skipsWords: Bool = false, isDemoted: Bool = false, overshadowing: Overshadowing? = nil) {
        self.city = city
        self.slot = slot
        self.query = query
        self.editCount = editCount
        self.nameEditCount = nameEditCount ?? editCount
        self.variant = variant
        self.skipsWords = skipsWords
        self.isDemoted = isDemoted
        self.overshadowing = overshadowing
    }

    /// The matching city's property: `match.name` is `match.city.name`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<City, Value>) -> Value { city[keyPath: keyPath] }

    /// The city's id: a city appears at most once among one search's matches, so it
    /// identifies the match in a list (`ForEach(matches)`).
    public var id: Int { city.id }

    /// The name the query matched: `city.name`, or the alternate name that matched.
    public var matchedName: String { city.contents.withName(ofRank: city.rank, slot: slot) { String(decoding: $0, as: UTF8.self) } }

    /// The alternate name that matched, or `nil` when the primary name did (WORDS.md §3:
    /// the primary name is reported whenever it matches).
    public var matchedAlternateName: String? { slot == 0 ? nil : matchedName }

    /// The highlighted part of `matchedName` in UTF-16 code units (like `NSRange`).
    ///
    /// Prefix matching (SEARCH.md §4): from the start to the end of the shortest run of
    /// leading scalars whose folds are at least as long as the folded query, extended over
    /// scalars that fold to nothing. Word matching (WORDS.md §4): from the start of the
    /// earliest word where the query matches to the end of the last matched letter.
    /// A typo-tolerant match (WORDS.md §6) highlights the longest prefix of the key (of the
    /// name, or of the earliest word whose suffix key has one) within its edits of the query,
    /// by the same rules. A skipped-word match (WORDS.md §9) highlights from its first matched
    /// word to the end of the last query word's letters, the skipped words included.
    /// Empty for the empty query.
    ///
    /// - Complexity: prefix matching O(*h*) scalars of the highlighted part, no allocation;
    ///   word matching O(length of the matched name).
    public var highlightUTF16Range: Range<Int> {
        let contents = city.contents
        if case .prefix(let foldedScalarCount) = query, slot == 0, !skipsWords {
            // The default search's path: the primary name in place, no closure.
            return 0 ..< contents.foldTable.highlightUTF16Length(ofName: contents.primaryName(ofRank: city.rank).buffer,
                                                                foldedQueryScalarCount: foldedScalarCount)
        }
        let table = contents.foldTable
        if skipsWords {
            let skipped = SkippedWords(queryKey: query.typedWordKey)
            return contents.withName(ofRank: city.rank, slot: slot) { name in
                skipped.flatMap { skipped in
                    WordHighlight.range(inName: name, table: table) { skipped.matchedLength(inSuffixKey: $0) }
                } ?? 0..<0
            }
        }
        switch query {
        case .prefix(let foldedScalarCount):
            return contents.withName(ofRank: city.rank, slot: slot) { name in
                0 ..< table.highlightUTF16Length(ofName: name, foldedQueryScalarCount: foldedScalarCount)
            }
        case .words(let key):
            return contents.withName(ofRank: city.rank, slot: slot) { name in
                WordHighlight.range(ofQueryKey: key, inName: name, table: table) ?? 0..<0
            }
        case .typoTolerant(.prefix, let keys, let costs):
            let key = variant < keys.count ? keys[variant] : []
            let editCount = max(0, nameEditCount - (variant < costs.count ? costs[variant] : 0))
            return contents.withName(ofRank: city.rank, slot: slot) { name in
                let folded = IteratorSequence(FoldedBytes(of: name, table: table))
                let scalarCount = TypoHighlight.longestPrefix(of: folded, within: editCount, of: key)?.scalarCount ?? 0
                return 0 ..< table.highlightUTF16Length(ofName: name, foldedQueryScalarCount: scalarCount)
            }
        case .typoTolerant(.words, let keys, let costs):
            let key = variant < keys.count ? keys[variant] : []
            let editCount = max(0, nameEditCount - (variant < costs.count ? costs[variant] : 0))
            // One automaton for every word of the name.
            let rows = EditDistanceRows(query: key, budget: editCount)
            return contents.withName(ofRank: city.rank, slot: slot) { name in
                WordHighlight.range(inName: name, table: table) { suffixKey in
                    TypoHighlight.longestPrefix(of: suffixKey, using: rows)?.byteCount
                } ?? 0..<0
            }
        }
    }

    /// The highlighted part as a range of `matchedName`'s indices.
    public var highlightRange: Range<String.Index> {
        let name = matchedName
        let range = highlightUTF16Range
        let start = String.Index(utf16Offset: min(range.lowerBound, name.utf16.count), in: name)
        let end = String.Index(utf16Offset: min(range.upperBound, name.utf16.count), in: name)
        return start ..< end
    }

}

extension CityMatch: CustomStringConvertible {
    /// The city, the matched name and the highlight, for logs and debugging.
    public var description: String {
        let alternate = matchedAlternateName.map { " matched \($0)" } ?? ""
        return "\(city)\(alternate) highlight \(highlightUTF16Range)"
    }
}
