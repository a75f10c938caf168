// SearchOrder.swift: the cities in search order and by id, and the runs of equal keys.
import CityIndex

/// Sorts the cities into search order (SEARCH.md §3: folded name bytes, then country, then
/// id) and by id, and finds the runs of equal folded keys, each sorted by population: the
/// order every section is written in. Rejects duplicate ids, naming both positions.
///
/// - Complexity: O(*n* log *n*) comparisons of keys for *n* cities.
struct SearchOrder {
    /// The record index (input order) of each rank.
    let recordOfRank: [UInt32]
    /// Record indices by increasing id.
    let recordsByID: [UInt32]
    /// The distinct folded keys in order, as runs of the collection's key arena; their entries
    /// are `NODE` entries (ranks).
    let distinctKeys: [TrieSectionWriter.Key]
    /// The population of each rank, 0 when unknown (what population order weighs).
    let populationOfRank: [UInt32]
    /// Whether any city has a known population (then `POPL` and `PORD` are written).
    let hasPopulation: Bool
    /// The rank each `NODE` entry stands for in population order: each run of equal keys
    /// sorted by `PopulationOrderKey` (FORMAT.md §7.8).
    let rankOfNodeEntry: [UInt32]

    init(collection: CityCollection) throws {
        let records = collection.records
        var recordsByID = (0 ..< UInt32(records.count)).map { $0 }
        recordsByID.sort { records[Int($0)].id < records[Int($1)].id }
        for (previous, next) in zip(recordsByID, recordsByID.dropFirst()) where records[Int(previous)].id == records[Int(next)].id {
            let first = records[Int(previous)], second = records[Int(next)]
            throw CityListError(line: Int(second.line), column: Int(second.column), recordID: second.id,
                                message: "duplicate _id \(second.id): also at \(first.line):\(first.column)")
        }

        var recordOfRank = (0 ..< UInt32(records.count)).map { $0 }
        collection.keyArena.withUnsafeBufferPointer { keys in
            recordOfRank.sort { left, right in
                let a = records[Int(left)], b = records[Int(right)]
                let order = Self.compare(keys, a.keyStart, a.keyByteCount, b.keyStart, b.keyByteCount)
                if order != 0 { return order < 0 }
                if a.countryCode != b.countryCode {
                    return (a.countryCode & 0xFF, a.countryCode >> 8) < (b.countryCode & 0xFF, b.countryCode >> 8)
                }
                return a.id < b.id
            }
        }

        var keys: [TrieSectionWriter.Key] = []
        for (rank, recordIndex) in recordOfRank.enumerated() {
            let record = records[Int(recordIndex)]
            if let last = keys.last, collection.keyArena[Int(last.start) ..< Int(last.start + last.byteCount)] == collection.key(of: record) {
                keys[keys.count - 1].entryEnd = UInt32(rank + 1)
            } else {
                keys.append(TrieSectionWriter.Key(start: record.keyStart, byteCount: record.keyByteCount,
                                                  firstEntry: UInt32(rank), entryEnd: UInt32(rank + 1)))
            }
        }

        let populations = recordOfRank.map { records[Int($0)].population }
        populationOfRank = populations.map { $0 == IndexLayout.unknownPopulation ? 0 : $0 }
        hasPopulation = populations.contains { $0 != IndexLayout.unknownPopulation }
        var rankOfNodeEntry = (0 ..< UInt32(records.count)).map { $0 }
        let weights = populationOfRank
        for key in keys where key.entryEnd - key.firstEntry > 1 {
            rankOfNodeEntry[Int(key.firstEntry) ..< Int(key.entryEnd)].sort {
                PopulationOrderKey(population: weights[Int($0)], rank: Int($0), slot: 0)
                    < PopulationOrderKey(population: weights[Int($1)], rank: Int($1), slot: 0)
            }
        }
        self.recordOfRank = recordOfRank
        self.recordsByID = recordsByID
        self.rankOfNodeEntry = rankOfNodeEntry
        distinctKeys = keys
    }

    /// The place in population order of name `slot` of the city at `rank`. O(1).
    @inline(__always)
    func populationOrderKey(rank: Int, slot: Int, isDemoted: Bool = false) -> PopulationOrderKey {
        PopulationOrderKey(population: populationOfRank[rank], rank: rank, slot: slot, isDemoted: isDemoted)
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
