// ReferenceFolding.swift: SEARCH.md §1, written independently of the index's fold table.
import Foundation

/// `fold` of SEARCH.md §1 computed directly with Foundation, scalar by scalar. The index
/// builder generates a table from the standard library's case mappings instead; tests
/// compare the two, so a mistake in either shows up as a difference.
public enum ReferenceFolding {
    private static let letters: [Unicode.Scalar: String] = [
        "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ħ": "h", "ı": "i",
        "ŧ": "t", "ƀ": "b", "ɨ": "i", "ŋ": "n", "ĸ": "k", "ſ": "s",
    ]

    /// `fold(c)` for one scalar.
    public static func fold(_ scalar: Unicode.Scalar) -> String {
        let decomposed = String(scalar).decomposedStringWithCompatibilityMapping
        var folded = decomposed.folding(options: [.caseInsensitive], locale: nil)
        // Foundation folds Cherokee to small letters; CaseFolding.txt folds it to capitals.
        folded = String(String.UnicodeScalarView(folded.unicodeScalars.map { scalar in
            switch scalar.value {
            case 0xAB70...0xABBF: return Unicode.Scalar(scalar.value - 0xAB70 + 0x13A0)!
            case 0x13F8...0x13FD: return Unicode.Scalar(scalar.value - 8)!
            default: return scalar
            }
        }))
        var result = ""
        for part in folded.decomposedStringWithCompatibilityMapping.unicodeScalars
        where part.properties.generalCategory != .nonspacingMark {
            if let letter = letters[part] { result += letter } else { result.unicodeScalars.append(part) }
        }
        return result
    }

    /// `fold(s)`: the concatenation of the folds of its scalars.
    public static func fold(_ text: String) -> String {
        text.unicodeScalars.map(fold).joined()
    }
}
