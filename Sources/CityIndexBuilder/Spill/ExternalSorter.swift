// ExternalSorter.swift: sorting more records than memory holds (sorted runs, then a k-way merge).
import Foundation

/// Sorts variable-length byte records by a caller's order in bounded memory (issue 15).
///
/// Records are appended to an in-memory arena; when it holds `memoryBudget` bytes (records
/// plus 20 bytes of bookkeeping each), its records are sorted and written to a `ScratchFile`
/// as a *run*. `sorted()` then merges the runs with a binary heap (O(*r* log *k*) comparisons
/// for *r* records in *k* runs) and yields every record once, in order. When nothing was
/// spilled, the arena is sorted and read in place: no file at all.
///
/// Invariant: `precedes` is a strict total order on the records appended (no two distinct
/// records compare equal), so the result does not depend on how records fell into runs:
/// the output is the same for every budget (the determinism of the index file rests on it).
///
/// Memory: at most `memoryBudget` while appending; while merging, one read buffer per run
/// (`mergeBufferBudget` in all).
final class ExternalSorter {
    typealias Precedes = (_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool
    /// A record's first 8 sort bytes as a number: when two records' prefixes differ, the
    /// smaller precedes (then `precedes` is not called: one integer comparison instead of
    /// reading two records that may be far apart in memory).
    typealias Prefix = (_ record: UnsafeRawBufferPointer) -> UInt64

    private let memoryBudget: Int
    private let directory: String
    private let precedes: Precedes
    private let prefix: Prefix
    /// Records as (u32 length, bytes), back to back.
    private var arena: [UInt8] = []
    /// Each record's sort prefix and start in the arena.
    private var starts: [(prefix: UInt64, start: Int)] = []
    private var runs: [(file: ScratchFile, recordCount: Int)] = []
    private(set) var recordCount = 0

    init(memoryBudget: Int, directory: String, prefix: @escaping Prefix, precedes: @escaping Precedes) {
        self.memoryBudget = max(memoryBudget, 1 << 16)
        self.directory = directory
        self.prefix = prefix
        self.precedes = precedes
        // Address space only: pages count once written, and the arena never grows by copying.
        arena.reserveCapacity(self.memoryBudget)
    }

    /// How many runs went to disk, and their bytes.
    var spilledRunCount: Int { runs.count }
    var spilledByteCount: Int { runs.reduce(0) { $0 + $1.file.byteCount } }

    func append(_ record: UnsafeRawBufferPointer) throws(IndexBuildError) {
        if arena.count + record.count + 4 + 16 * (starts.count + 1) > memoryBudget, !starts.isEmpty { try spill() }
        starts.append((prefix(record), arena.count))
        let length = UInt32(record.count)
        arena.append(UInt8(truncatingIfNeeded: length))
        arena.append(UInt8(truncatingIfNeeded: length >> 8))
        arena.append(UInt8(truncatingIfNeeded: length >> 16))
        arena.append(UInt8(truncatingIfNeeded: length >> 24))
        arena.append(contentsOf: record)
        recordCount += 1
    }

    func append(_ record: [UInt8]) throws(IndexBuildError) {
        var failure: IndexBuildError?
        record.withUnsafeBytes { raw in
            do throws(IndexBuildError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private func sortArena() {
        let precedes = self.precedes
        arena.withUnsafeBytes { bytes in
            func record(_ start: Int) -> UnsafeRawBufferPointer {
                let length = Int(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian)
                return UnsafeRawBufferPointer(rebasing: bytes[start + 4 ..< start + 4 + length])
            }
            starts.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : precedes(record($0.start), record($1.start)) }
        }
    }

    /// Sorts the arena and writes it as a run.
    private func spill() throws(IndexBuildError) {
        sortArena()
        let file = try ScratchFile(directory: directory)
        var failure: IndexBuildError?
        arena.withUnsafeBytes { bytes in
            do throws(IndexBuildError) {
                for (_, start) in starts {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian)
                    try file.append(UnsafeRawBufferPointer(rebasing: bytes[start ..< start + 4 + length]))
                }
            } catch { failure = error }
        }
        if let failure { throw failure }
        try file.finishWriting()
        runs.append((file, starts.count))
        arena.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }

    /// The records in order. The sorter is spent: append nothing after this.
    func sorted(mergeBufferBudget: Int) throws(IndexBuildError) -> SortedRecords {
        if runs.isEmpty {
            sortArena()
            let records = SortedRecords(arena: arena, starts: starts, precedes: precedes)
            arena = []
            starts = []
            return records
        }
        if !starts.isEmpty { try spill() }
        arena = []
        starts = []
        let bufferByteCount = min(4 << 20, max(64 << 10, mergeBufferBudget / runs.count))
        return try SortedRecords(runs: runs.map { $0.file }, bufferByteCount: bufferByteCount, precedes: precedes)
    }
}

/// The sort prefix of a record that starts with a `u32` length and that many key bytes: the
/// first 8 key bytes, big-endian, zero-padded (a shorter key sorts first, as zero padding does).
func keyPrefix(_ record: UnsafeRawBufferPointer) -> UInt64 {
    let count = min(Int(UInt32(littleEndian: record.loadUnaligned(as: UInt32.self))), 8)
    var value: UInt64 = 0
    for index in 0 ..< count { value |= UInt64(record[4 + index]) << UInt64(56 - 8 * index) }
    return value
}

/// The output of an `ExternalSorter`: `next()` yields each record in order.
final class SortedRecords {
    private let precedes: ExternalSorter.Precedes
    // In memory:
    private var arena: [UInt8]
    private var starts: [(prefix: UInt64, start: Int)]
    private var position = 0
    // Merging: one reader per run, a heap of the runs whose current record is unread.
    private var readers: [ScratchFileReader] = []
    private var current: [UnsafeRawBufferPointer] = []
    private var heap = BinaryHeap<Int>()
    private var runs: [ScratchFile] = []
    /// The run whose record was yielded last, to advance before the next.
    private var yielded: Int?

    fileprivate init(arena: [UInt8], starts: [(prefix: UInt64, start: Int)], precedes: @escaping ExternalSorter.Precedes) {
        self.arena = arena
        self.starts = starts
        self.precedes = precedes
    }

    fileprivate init(runs: [ScratchFile], bufferByteCount: Int, precedes: @escaping ExternalSorter.Precedes) throws(IndexBuildError) {
        arena = []
        starts = []
        self.precedes = precedes
        self.runs = runs
        readers = runs.map { ScratchFileReader($0, bufferByteCount: bufferByteCount) }
        current = Array(repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: runs.count)
        for run in runs.indices where try advance(run) { heap.push(run, by: less) }
    }

    deinit { for reader in readers { reader.deallocate() } }

    /// The next record (valid until the next call), or nil after the last.
    func next() throws(IndexBuildError) -> UnsafeRawBufferPointer? {
        if readers.isEmpty {
            guard position < starts.count else { return nil }
            let start = starts[position].start
            position += 1
            return arena.withUnsafeBytes { bytes in
                let length = Int(bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian)
                // The arena is not mutated while records are read: the pointer stays valid.
                return UnsafeRawBufferPointer(rebasing: bytes[start + 4 ..< start + 4 + length])
            }
        }
        if let run = yielded {
            yielded = nil
            if try advance(run) { heap.push(run, by: less) }
        }
        guard let run = heap.pop(by: less) else { return nil }
        yielded = run
        return current[run]
    }

    /// Reads run `run`'s next record into `current`; false at its end.
    private func advance(_ run: Int) throws(IndexBuildError) -> Bool {
        guard !readers[run].isAtEnd else { return false }
        let length = Int(try readers[run].next(4).loadUnaligned(as: UInt32.self).littleEndian)
        current[run] = try readers[run].next(length)
        return true
    }

    private func less(_ a: Int, _ b: Int) -> Bool { precedes(current[a], current[b]) }
}
