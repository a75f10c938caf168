// WordPostingLayout.swift: the postings of word matching and the keys of their trie.
import CityIndex
import Foundation

/// One posting per (suffix key, city): every word start of every name of every city
/// (WORDS.md §1), deduplicated so that a city has one posting per distinct suffix key, that
/// of its best name with that key (WORDS.md §3: the primary name, else the first alternate
/// whose match is not demoted, else the first alternate), each marked demoted or not
/// (`AlternateDemotion`).
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
    let postingDemotions: [Bool]

    private struct Posting {
        var keyStart: UInt32
        var keyByteCount: UInt32
        var rank: UInt32
        var slot: UInt16
        var isDemoted: Bool
    }

    /// - Complexity: O(*p* log *p*) key comparisons for *p* postings, plus a pass over each
    ///   alternate name's text.
    init(collection: CityCollection, order: SearchOrder, foldTable: FoldTable) {
        var postings: [Posting] = []
        for (rank, recordIndex) in order.recordOfRank.enumerated() {
            let record = collection.records[Int(recordIndex)]
            for slot in 0 ... Int(record.alternateCount) {
                let name = collection.names[Int(record.firstName) + slot]
                let looksMachineMade = slot > 0 && collection.text(of: name).withUnsafeBytes {
                    AlternateDemotion.looksMachineMade($0, foldTable: foldTable)
                }
                for (wordIndex, start) in collection.wordStartOffsets(of: name).enumerated() {
                    postings.append(Posting(keyStart: name.wordKeyStart + start, keyByteCount: name.wordKeyByteCount - start,
                                            rank: UInt32(rank), slot: UInt16(slot),
                                            isDemoted: slot > 0 && (wordIndex > 0 || looksMachineMade)))
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
                return (a.rank, a.isDemoted ? 1 : 0, a.slot) < (b.rank, b.isDemoted ? 1 : 0, b.slot)
            }
            // Keep the first (best) posting of each (key, city).
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
                    order.populationOrderKey(rank: Int(a.rank), slot: Int(a.slot), isDemoted: a.isDemoted)
                        < order.populationOrderKey(rank: Int(b.rank), slot: Int(b.slot), isDemoted: b.isDemoted)
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
        postingDemotions = postings.map(\.isDemoted)
    }
}

/// memcmp's sign for `count` bytes (unsigned byte order, as the keys sort).
@inline(__always)
private func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int {
    Int(memcmp(a, b, count).signum())
}
