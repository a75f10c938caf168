// QueryText.swift: the part of a query that searches use (SEARCH.md §2, WORDS.md §2).

extension String {
    /// The query's scalars after its leading white space (Unicode White_Space), which no
    /// search mode matches on; trailing white space is kept (it asks for a following word).
    /// The one place that trims queries: the reader, the session layer and the tools use it.
    /// - Complexity: O(leading white space) to start; no substring is made, and ASCII scalars
    ///   are classified without a Unicode property lookup.
    @inline(__always)
    package var scalarsAfterLeadingWhiteSpace: ScalarsAfterLeadingWhiteSpace {
        ScalarsAfterLeadingWhiteSpace(text: self)
    }
}

/// The scalars of `text` after its leading white space, in order
/// (`String.scalarsAfterLeadingWhiteSpace`).
package struct ScalarsAfterLeadingWhiteSpace: Sequence {
    let text: String

    @inline(__always)
    init(text: String) { self.text = text }

    @inline(__always)
    package func makeIterator() -> Iterator { Iterator(scalars: text.unicodeScalars.makeIterator()) }

    package struct Iterator: IteratorProtocol {
        var scalars: String.UnicodeScalarView.Iterator
        /// Whether the leading white space has been passed.
        var started = false

        @inline(__always)
        init(scalars: String.UnicodeScalarView.Iterator) { self.scalars = scalars }

        @inline(__always)
        package mutating func next() -> Unicode.Scalar? {
            if started { return scalars.next() }
            started = true
            while let scalar = scalars.next() {
                if !Self.isWhiteSpace(scalar) { return scalar }
            }
            return nil
        }

        /// Unicode White_Space; ASCII without a property lookup.
        @inline(__always)
        static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
            return scalar.properties.isWhitespace
        }
    }
}
