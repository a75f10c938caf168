// ScalarFolding.swift: SEARCH.md §1 for one scalar, computed with Unicode data.
import Foundation

/// Computes `fold(c)` of SEARCH.md §1 from Unicode data: NFKD (Foundation), full case
/// folding (the standard library's case mappings), NFKD again, then drops nonspacing marks
/// and applies the letter table. Used only to generate the fold table; everything else
/// folds through `FoldTable`, the table written into the index.
package enum ScalarFolding {
    /// Step 5: letters with no decomposition, replaced after marks are dropped.
    static let letterReplacements: [UInt32: String] = [
        0x00E6: "ae", 0x0153: "oe", 0x00F8: "o", 0x0142: "l", 0x0111: "d", 0x00F0: "d", 0x00FE: "th",
        0x0127: "h", 0x0131: "i", 0x0167: "t", 0x0180: "b", 0x0268: "i", 0x014B: "n", 0x0138: "k",
        0x017F: "s",
    ]

    /// `fold(scalar)` as a string of scalars.
    package static func fold(_ scalar: Unicode.Scalar) -> String {
        let decomposed = String(scalar).decomposedStringWithCompatibilityMapping
        var caseFolded = ""
        for part in decomposed.unicodeScalars { caseFolded.unicodeScalars.append(contentsOf: fullCaseFolding(part)) }
        var result = ""
        for part in caseFolded.decomposedStringWithCompatibilityMapping.unicodeScalars
        where part.properties.generalCategory != .nonspacingMark {
            if let replacement = letterReplacements[part.value] {
                result += replacement
            } else {
                result.unicodeScalars.append(part)
            }
        }
        return result
    }

    /// Full case folding (CaseFolding.txt, statuses C and F) of one scalar.
    ///
    /// The standard library exposes case mappings but not the folding itself. Folding equals
    /// lowercase(uppercase(c)), repeated until it stops changing (ẞ → ß → ss), for every
    /// scalar but two kinds: Cherokee, which folds to its capitals, and U+0131 ı, which
    /// CaseFolding.txt leaves alone but step 5 maps to `i` anyway, as this does.
    static func fullCaseFolding(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var current = [scalar]
        for _ in 0..<4 {
            var next: [Unicode.Scalar] = []
            for part in current {
                for upper in part.properties.uppercaseMapping.unicodeScalars {
                    next.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars)
                }
            }
            if next == current { break }
            current = next
        }
        return current.map(cherokeeCapital)
    }

    /// Cherokee small letters fold to their capitals (the reverse of most scripts).
    private static func cherokeeCapital(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0xAB70...0xABBF: return Unicode.Scalar(scalar.value - 0xAB70 + 0x13A0)!
        case 0x13F8...0x13FD: return Unicode.Scalar(scalar.value - 8)!
        default: return scalar
        }
    }
}
