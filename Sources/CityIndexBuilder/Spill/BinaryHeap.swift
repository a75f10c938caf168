// BinaryHeap.swift: a binary heap whose order the caller passes with each operation.

/// An array kept as a binary heap: the root is the element that precedes all others under the
/// order passed to `push` and `pop` (always the same order for one heap). The order is given
/// per call, not stored, so it may read state the heap's owner holds (records in buffers,
/// bytes in an arena). O(log *n*) comparisons per push or pop.
struct BinaryHeap<Element> {
    private(set) var elements: [Element] = []

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }
    /// The root: the element that precedes all others.
    var first: Element? { elements.first }

    mutating func push(_ element: Element, by precedes: (Element, Element) -> Bool) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the root.
    mutating func pop(by precedes: (Element, Element) -> Bool) -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let top = elements[0]
        elements[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < elements.count, precedes(elements[left], elements[first]) { first = left }
            if right < elements.count, precedes(elements[right], elements[first]) { first = right }
            if first == parent { break }
            elements.swapAt(parent, first)
            parent = first
        }
        return top
    }

    /// Applies `update` to every element (an order-preserving change, such as moving the bytes
    /// each element points at).
    mutating func updateEach(_ update: (inout Element) -> Void) {
        for index in elements.indices { update(&elements[index]) }
    }
}
