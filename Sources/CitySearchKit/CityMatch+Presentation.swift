// CityMatch+Presentation.swift: highlight ranges in the forms UI code uses.
import CityIndex
import Foundation

extension CityMatch {
    /// The highlight as an `NSRange` over `matchedName` (UTF-16), like MapKit's highlight
    /// ranges (the name itself unless an alternate name matched).
    public var highlightNSRange: NSRange {
        NSRange(location: highlightUTF16Range.lowerBound, length: highlightUTF16Range.count)
    }

    /// The name with the matched part marked by `CityNameHighlightAttribute` (and, on Apple
    /// platforms, strongly emphasized: bold in SwiftUI `Text`). Nothing is marked when an
    /// alternate name matched: show `highlightedMatchedAlternateName()` as a subtitle then.
    public func highlightedName() -> AttributedString {
        matchedAlternateName == nil ? Self.highlighted(city.name, range: highlightRange) : AttributedString(city.name)
    }

    /// The alternate name that matched, with the matched part marked ("München — matched
    /// **Mun**ich"), or `nil` when the name itself matched.
    public func highlightedMatchedAlternateName() -> AttributedString? {
        matchedAlternateName.map { Self.highlighted($0, range: highlightRange) }
    }

    private static func highlighted(_ name: String, range: Range<String.Index>) -> AttributedString {
        var attributed = AttributedString(name)
        let lower = AttributedString.Index(range.lowerBound, within: attributed)
        let upper = AttributedString.Index(range.upperBound, within: attributed)
        if let lower, let upper, lower < upper {
            attributed[lower..<upper][CityNameHighlightAttribute.self] = true
            #if canImport(Darwin)
            attributed[lower..<upper].inlinePresentationIntent = .stronglyEmphasized
            #endif
        }
        return attributed
    }
}

/// Marks the part of a city name a query matched.
public enum CityNameHighlightAttribute: AttributedStringKey {
    public typealias Value = Bool
    public static let name = "cityIndex.highlight"
}
