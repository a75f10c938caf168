// SearchOrderLayout.swift: the cities in search order, as section bytes.
import CityIndex

/// Sorts the cities into search order (SEARCH.md §3: folded name bytes, then country, then
/// id) and encodes the `CITY`, `NAME`, `IDIX`, `ALTN`, `POPL` and `PORD` sections and the
/// trie's keys. Rejects duplicate ids, naming both positions.
struct SearchOrderLayout {
    /// The distinct folded keys in order, as runs of the collection's key arena; their
    /// entries are positions of `populationOrder`.
    let distinctKeys: [TrieWriter.Key]
    /// The record index of each rank.
    let searchOrder: [UInt32]
    /// The ranking weight of each rank: its population, 0 when unknown.
    let weights: [UInt32]
    /// The ranks of each run of equal keys, by population (FORMAT.md §7.7): the `NODE`
    /// trie's entries.
    let populationOrder: [UInt32]
    let cityRecordBytes: [UInt8]
    let nameBytes: [UInt8]
    let idIndexBytes: [UInt8]
    let alternateNameBytes: [UInt8]
    let populationBytes: [UInt8]?
    let populationOrderBytes: [UInt8]?

    /// Whether rank `a` ranks before rank `b` in population order: larger population
    /// first (unknown counts as 0), then search order.
    static func ranksBefore(_ a: Int, _ b: Int, weights: [UInt32]) -> Bool {
        PopulationOrder.precedes((a, 0, weights[a]), (b, 0, weights[b]))
    }

    init(collection: CityCollection) throws {
        let records = collection.records
        var idOrder = (0 ..< UInt32(records.count)).map { $0 }
        idOrder.sort { records[Int($0)].id < records[Int($1)].id }
        for (previous, next) in zip(idOrder, idOrder.dropFirst()) where records[Int(previous)].id == records[Int(next)].id {
            let first = records[Int(previous)], second = records[Int(next)]
            throw CityListError(line: Int(second.line), column: Int(second.column), recordID: second.id,
                                message: "duplicate _id \(second.id): also at \(first.line):\(first.column)")
        }

        var searchOrder = (0 ..< UInt32(records.count)).map { $0 }
        collection.keyArena.withUnsafeBufferPointer { keys in
            searchOrder.sort { left, right in
                let a = records[Int(left)], b = records[Int(right)]
                let order = Self.compare(keys, a.keyStart, a.keyByteCount, b.keyStart, b.keyByteCount)
                if order != 0 { return order < 0 }
                if a.countryCode != b.countryCode {
                    return (a.countryCode & 0xFF, a.countryCode >> 8) < (b.countryCode & 0xFF, b.countryCode >> 8)
                }
                return a.id < b.id
            }
        }

        var cities = ByteWriter(capacity: records.count * IndexLayout.cityRecordByteCount)
        var names = ByteWriter(capacity: collection.nameArena.count)
        var keys: [TrieWriter.Key] = []
        /// Names already written for the current key: identical names fold to identical
        /// keys, so deduplicating within a run of equal keys finds every duplicate.
        var namesOfCurrentKey: [(name: ArraySlice<UInt8>, offset: UInt32)] = []
        var hasPopulation = false
        for (rank, recordIndex) in searchOrder.enumerated() {
            let record = records[Int(recordIndex)]
            let key = collection.key(of: record)
            if let last = keys.last, collection.keyArena[Int(last.start) ..< Int(last.start + last.byteCount)] == key {
                keys[keys.count - 1].rankEnd = UInt32(rank + 1)
            } else {
                keys.append(TrieWriter.Key(start: record.keyStart, byteCount: record.keyByteCount,
                                           firstRank: UInt32(rank), rankEnd: UInt32(rank + 1)))
                namesOfCurrentKey.removeAll(keepingCapacity: true)
            }
            let name = collection.name(of: record)
            let nameOffset: UInt32
            if let existing = namesOfCurrentKey.first(where: { $0.name == name }) {
                nameOffset = existing.offset
            } else {
                nameOffset = UInt32(names.count)
                namesOfCurrentKey.append((name, nameOffset))
                names.append(name)
            }
            cities.appendUInt32(record.id)
            cities.appendUInt32(UInt32(bitPattern: record.latitudeMicrodegrees))
            cities.appendUInt32(UInt32(bitPattern: record.longitudeMicrodegrees))
            cities.appendUInt32(nameOffset)
            cities.appendUInt16(record.nameByteCount)
            cities.appendUInt16(record.countryCode)
            hasPopulation = hasPopulation || record.population != IndexLayout.unknownPopulation
        }

        // ALTN: each city's alternate names, one run of (length varint, UTF-8) per city.
        var alternateText = ByteWriter()
        var alternates = ByteWriter(capacity: IndexLayout.alternateHeaderByteCount + (records.count + 1) * 4)
        alternates.appendUInt32(0)   // text byte count, patched below
        alternates.appendUInt32(0)
        for recordIndex in searchOrder {
            alternates.appendUInt32(UInt32(alternateText.count))
            let record = records[Int(recordIndex)]
            for alternate in 0 ..< Int(record.alternateCount) {
                let text = collection.text(of: collection.names[Int(record.firstName) + 1 + alternate])
                alternateText.appendVarint(UInt32(text.count))
                alternateText.append(text)
            }
        }
        alternates.appendUInt32(UInt32(alternateText.count))
        alternates.overwriteUInt32(UInt32(alternateText.count), at: 0)
        alternates.append(alternateText.bytes[...])
        alternateNameBytes = alternates.bytes

        var rankOfRecord = [UInt32](repeating: 0, count: records.count)
        for (rank, recordIndex) in searchOrder.enumerated() { rankOfRecord[Int(recordIndex)] = UInt32(rank) }
        var idIndex = ByteWriter(capacity: records.count * 4)
        for recordIndex in idOrder { idIndex.appendUInt32(rankOfRecord[Int(recordIndex)]) }
        if hasPopulation {
            var population = ByteWriter(capacity: records.count * 4)
            for recordIndex in searchOrder { population.appendUInt32(records[Int(recordIndex)].population) }
            populationBytes = population.bytes
        } else {
            populationBytes = nil
        }
        let weights = searchOrder.map { records[Int($0)].population == IndexLayout.unknownPopulation ? 0 : records[Int($0)].population }
        var populationOrder = (0 ..< UInt32(records.count)).map { $0 }
        for key in keys where key.rankEnd - key.firstRank > 1 {
            populationOrder[Int(key.firstRank) ..< Int(key.rankEnd)].sort { Self.ranksBefore(Int($0), Int($1), weights: weights) }
        }
        if hasPopulation {
            // Only the positions whose rank differs from the position are stored (FORMAT.md §7.8).
            let moved = populationOrder.indices.filter { populationOrder[$0] != UInt32($0) }
            var order = ByteWriter(capacity: 8 + moved.count * 8)
            order.appendUInt32(UInt32(moved.count))
            order.appendUInt32(0)
            for position in moved { order.appendUInt32(UInt32(position)) }
            for position in moved { order.appendUInt32(populationOrder[position]) }
            populationOrderBytes = order.bytes
        } else {
            populationOrderBytes = nil
        }
        self.weights = weights
        self.populationOrder = populationOrder
        self.searchOrder = searchOrder
        distinctKeys = keys
        cityRecordBytes = cities.bytes
        nameBytes = names.bytes
        idIndexBytes = idIndex.bytes
    }

    /// memcmp-style comparison of two byte runs of the key arena.
    private static func compare(_ arena: UnsafeBufferPointer<UInt8>, _ firstStart: UInt32, _ firstCount: UInt32,
                                _ secondStart: UInt32, _ secondCount: UInt32) -> Int {
        let common = Int(min(firstCount, secondCount))
        for index in 0..<common {
            let a = arena[Int(firstStart) + index], b = arena[Int(secondStart) + index]
            if a != b { return a < b ? -1 : 1 }
        }
        return Int(firstCount) - Int(secondCount)
    }
}
