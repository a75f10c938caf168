// CityMatch+Presentation.swift: highlight ranges in the forms UI code uses.
import CityIndex
import Foundation

extension CityMatch {
    /// The highlight as an `NSRange` over the name (UTF-16), like MapKit's highlight ranges.
    public var highlightNSRange: NSRange {
        NSRange(location: highlightUTF16Range.lowerBound, length: highlightUTF16Range.count)
    }

    /// The name with the matched part marked by `CityNameHighlightAttribute` (and, on Apple
    /// platforms, strongly emphasized: bold in SwiftUI `Text`).
    public func highlightedName() -> AttributedString {
        let name = self.name
        var attributed = AttributedString(name)
        let range = highlightRange
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
