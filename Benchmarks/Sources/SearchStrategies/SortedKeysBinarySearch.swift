// SortedKeysBinarySearch.swift: strategy 3, sorted folded keys in contiguous arrays, binary search.
@_spi(Benchmarks) import CityIndexBuilder

/// What a careful engineer writes without a custom file format: at load, every name is folded
/// with the same fold table the index uses, the cities are sorted in search order, and keys,
/// names and ids go into contiguous arrays: the key bytes in one buffer, and per key a 16-byte
/// entry holding its first 8 bytes as a big-endian integer (an abbreviated key, as databases
/// sort with), its offset and its length, so that most probes of the search cost one cache line.
///
/// A query folds into a reused buffer and runs a binary search for the first key ≥ the query,
/// then, galloping from there, for the first key past every key that starts with it:
/// O(*m* log *n*), count O(1), no allocation, reference counting or `String` work per
/// comparison. The answer's highlights are computed from the name bytes.
/// One instance serves one thread at a time (it reuses its query buffer).
public final class SortedKeysBinarySearch: SearchStrategy {
    public static let name = "sorted keys + binary search"

    private struct KeyEntry {
        /// The key's first 8 bytes, big-endian, zero-padded: integer order is byte order.
        var head: UInt64
        var start: UInt32
        var length: UInt32
    }

    private let entries: [KeyEntry]
    /// Folded keys in search order, back to back.
    private let keyBytes: [UInt8]
    /// Names in search order, back to back; name *i* is `nameBytes[nameStarts[i] ..< nameStarts[i + 1]]`.
    private let nameBytes: [UInt8]
    private let nameStarts: [UInt32]
    private let ids: [Int]
    /// The folded query of the call in progress (capacity reused between calls).
    private var query: [UInt8] = []

    public init(cities: [DecodedCity]) {
        let ordered = KeyedCity.searchOrdered(cities)
        var entries: [KeyEntry] = [], keyBytes: [UInt8] = [], nameBytes: [UInt8] = [], nameStarts: [UInt32] = [0]
        entries.reserveCapacity(ordered.count)
        nameStarts.reserveCapacity(ordered.count + 1)
        for city in ordered {
            entries.append(KeyEntry(head: Self.head(of: city.key[...]), start: UInt32(keyBytes.count), length: UInt32(city.key.count)))
            keyBytes += city.key
            nameBytes += city.city.name.utf8
            nameStarts.append(UInt32(nameBytes.count))
        }
        self.entries = entries
        self.keyBytes = keyBytes
        self.nameBytes = nameBytes
        self.nameStarts = nameStarts
        ids = ordered.map(\.city.id)
        query.reserveCapacity(256)
    }

    /// The first 8 bytes of `bytes` as a big-endian integer, zero-padded.
    private static func head(of bytes: some Collection<UInt8>) -> UInt64 {
        var head: UInt64 = 0
        for (index, byte) in bytes.prefix(8).enumerated() { head |= UInt64(byte) << (56 - 8 * UInt64(index)) }
        return head
    }

    public func search(_ text: String, limit: Int) -> SearchAnswer {
        let scalarCount = SearchKey.foldQuery(text, into: &query)
        let queryHead = Self.head(of: query)
        let headLength = min(query.count, 8)
        let headMask: UInt64 = headLength == 8 ? .max : headLength == 0 ? 0 : ~(UInt64.max >> UInt64(8 * headLength))
        return entries.withUnsafeBufferPointer { entries in
            keyBytes.withUnsafeBufferPointer { keys in
                query.withUnsafeBufferPointer { prefix in
                    /// Key `index`'s first `prefix.count` bytes (or all, if shorter) against the
                    /// prefix: -1 below, 0 starts with it, 1 above.
                    func compare(_ index: Int) -> Int {
                        let entry = entries[index]
                        let keyHead = entry.head & headMask, wanted = queryHead & headMask
                        if keyHead != wanted { return keyHead < wanted ? -1 : 1 }
                        let length = Int(entry.length)
                        if length < headLength { return -1 }   // a shorter key whose padding matched
                        if prefix.count <= 8 { return 0 }
                        let start = Int(entry.start), common = min(length, prefix.count)
                        for offset in 8 ..< max(8, common) where keys[start + offset] != prefix[offset] {
                            return keys[start + offset] < prefix[offset] ? -1 : 1
                        }
                        return common < prefix.count ? -1 : 0
                    }
                    var low = 0, high = entries.count
                    while low < high {
                        let middle = (low + high) / 2
                        if compare(middle) < 0 { low = middle + 1 } else { high = middle }
                    }
                    let lower = low
                    var step = 1
                    high = entries.count
                    while low + step < high, compare(low + step) <= 0 {
                        low += step
                        step *= 2
                    }
                    high = min(high, low + step)
                    while low < high {
                        let middle = (low + high) / 2
                        if compare(middle) <= 0 { low = middle + 1 } else { high = middle }
                    }
                    return answer(count: low - lower, first: lower ..< min(low, lower + limit), scalarCount: scalarCount)
                }
            }
        }
    }

    private func answer(count: Int, first: Range<Int>, scalarCount: Int) -> SearchAnswer {
        var answer = SearchAnswer(count: count, ids: [], highlights: [])
        answer.ids.reserveCapacity(first.count)
        answer.highlights.reserveCapacity(first.count)
        nameBytes.withUnsafeBytes { names in
            for index in first {
                answer.ids.append(ids[index])
                let name = UnsafeRawBufferPointer(rebasing: names[Int(nameStarts[index]) ..< Int(nameStarts[index + 1])])
                answer.highlights.append(SearchKey.highlightUTF16Length(nameUTF8: name, foldedQueryScalarCount: scalarCount))
            }
        }
        return answer
    }
}
