// WordPostingLayout.swift: the postings of word matching and the keys of their trie.
import CityIndex
import Foundation

/// One posting per (suffix key, city): every word start of every name of every city
/// (WORDS.md §1), deduplicated so that a city has one posting per distinct suffix key,
/// that of its lowest name slot (0 = primary name, then alternates in order).
///
/// Postings are sorted by key bytes and, within one key, in population order (FORMAT.md
/// §7.7): the entries of `WPST` (`WordPostingsWriter`), and the `WNOD` trie's keys over them.
struct WordPostingLayout {
    /// The distinct suffix keys, as runs of the collection's word key arena, each owning
    /// the postings `firstEntry ..< entryEnd`.
    let keys: [TrieSectionWriter.Key]
    /// The city rank and name slot of each posting.
    let postingRanks: [UInt32]
    let postingSlots: [UInt16]

    private struct Posting {
        var keyStart: UInt32
        var keyByteCount: UInt32
        var rank: UInt32
        var slot: UInt16
    }

    /// - Complexity: O(*p* log *p*) key comparisons for *p* postings.
    init(collection: CityCollection, order: SearchOrder) {
        var postings: [Posting] = []
        for (rank, recordIndex) in order.recordOfRank.enumerated() {
            let record = collection.records[Int(recordIndex)]
            for slot in 0 ... Int(record.alternateCount) {
                let name = collection.names[Int(record.firstName) + slot]
                for start in collection.wordStartOffsets(of: name) {
                    postings.append(Posting(keyStart: name.wordKeyStart + start, keyByteCount: name.wordKeyByteCount - start,
                                            rank: UInt32(rank), slot: UInt16(slot)))
                }
            }
        }
        keys = collection.wordKeyArena.withUnsafeBufferPointer { arena -> [TrieSectionWriter.Key] in
            func compareKeys(_ a: Posting, _ b: Posting) -> Int {
                let common = Int(min(a.keyByteCount, b.keyByteCount))
                let result = memcmpBytes(arena.baseAddress! + Int(a.keyStart), arena.baseAddress! + Int(b.keyStart), common)
                return result != 0 ? result : Int(a.keyByteCount) - Int(b.keyByteCount)
            }
            postings.sort { a, b in
                let order = compareKeys(a, b)
                if order != 0 { return order < 0 }
                return (a.rank, a.slot) < (b.rank, b.slot)
            }
            // Keep the first (lowest-slot) posting of each (key, city).
            var kept = 0
            for index in postings.indices {
                if kept > 0, postings[kept - 1].rank == postings[index].rank, compareKeys(postings[kept - 1], postings[index]) == 0 {
                    continue
                }
                postings[kept] = postings[index]
                kept += 1
            }
            postings.removeSubrange(kept...)

            var keys: [TrieSectionWriter.Key] = []
            var groupStart = 0
            while groupStart < postings.count {
                var groupEnd = groupStart + 1
                while groupEnd < postings.count, compareKeys(postings[groupStart], postings[groupEnd]) == 0 { groupEnd += 1 }
                postings[groupStart ..< groupEnd].sort { (a: Posting, b: Posting) -> Bool in
                    order.populationOrderKey(rank: Int(a.rank), slot: Int(a.slot)) < order.populationOrderKey(rank: Int(b.rank), slot: Int(b.slot))
                }
                let first = postings[groupStart]
                keys.append(TrieSectionWriter.Key(start: first.keyStart, byteCount: first.keyByteCount,
                                           firstEntry: UInt32(groupStart), entryEnd: UInt32(groupEnd)))
                groupStart = groupEnd
            }
            return keys
        }
        postingRanks = postings.map(\.rank)
        postingSlots = postings.map(\.slot)
    }
}

/// memcmp's sign for `count` bytes (unsigned byte order, as the keys sort).
@inline(__always)
private func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int {
    Int(memcmp(a, b, count).signum())
}
