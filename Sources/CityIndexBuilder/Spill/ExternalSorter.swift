// ExternalSorter.swift: sorting more records than memory holds (sorted runs, then a k-way merge).
import Foundation

/// Sorts variable-length byte records by a caller's order in bounded memory (issue 15).
///
/// Records are appended to an in-memory arena; when it holds half of `memoryBudget` (records
/// plus 20 bytes of bookkeeping each), it is handed to a `WorkerThread` that sorts it and
/// writes it to a `ScratchFile` as a *run*, while a second arena fills (both cores busy; the
/// next hand-over waits for the previous run). `sorted()` then merges the runs with a binary
/// heap (O(*r* log *k*) comparisons for *r* records in *k* runs) and yields every record
/// once, in order. When nothing was spilled, the arena is sorted and read in place: no file
/// at all, no thread.
///
/// Invariant: `precedes` is a strict total order on the records appended (no two distinct
/// records compare equal), so the result does not depend on how records fell into runs:
/// the output is the same for every budget (the determinism of the index file rests on it).
///
/// Memory: at most `memoryBudget` while appending (two arenas of half of it); while merging,
/// one read buffer per run (`mergeBufferBudget` in all).
final class ExternalSorter {
    typealias Precedes = (_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool
    /// A record's first 8 sort bytes as a number: when two records' prefixes differ, the
    /// smaller precedes (then `precedes` is not called: one integer comparison instead of
    /// reading two records that may be far apart in memory).
    typealias Prefix = (_ record: UnsafeRawBufferPointer) -> UInt64

    /// The most one arena holds (half the budget: one fills while the other is written).
    private let arenaBudget: Int
    private let directory: String
    private let precedes: Precedes
    private let prefix: Prefix
    /// Records as (u32 length, bytes), back to back. (Appended to for every record: no dynamic
    /// exclusivity checks; a sorter is used by one thread at a time, accesses never overlap.)
    @exclusivity(unchecked) private var arena: [UInt8] = []
    /// Each record's sort prefix and start in the arena.
    @exclusivity(unchecked) private var starts: [(prefix: UInt64, start: Int)] = []
    private var runs: [ScratchFile] = []
    /// The run a worker is sorting and writing, if any.
    private var pending: PendingRun?
    private(set) var recordCount = 0

    init(memoryBudget: Int, directory: String, prefix: @escaping Prefix, precedes: @escaping Precedes) {
        arenaBudget = max(memoryBudget, 1 << 16) / 2
        self.directory = directory
        self.prefix = prefix
        self.precedes = precedes
        // Address space only: pages count once written, and the arena never grows by copying.
        arena.reserveCapacity(arenaBudget)
    }

    deinit { pending?.worker.join() }

    /// How many runs went to disk, and their bytes (after `sorted`).
    var spilledRunCount: Int { runs.count }
    var spilledByteCount: Int { runs.reduce(0) { $0 + $1.byteCount } }

    func append(_ record: UnsafeRawBufferPointer) throws(IndexBuildError) {
        if arena.count + record.count + 4 + 16 * (starts.count + 1) > arenaBudget, !starts.isEmpty { try spill() }
        starts.append((prefix(record), arena.count))
        arena.appendLengthPrefixed(record)
        recordCount += 1
    }

    func append(_ record: [UInt8]) throws(IndexBuildError) {
        var failure: IndexBuildError?
        record.withUnsafeBytes { raw in
            do throws(IndexBuildError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Sorts `starts` by the records they point to in `arena`.
    private static func sort(_ starts: inout [(prefix: UInt64, start: Int)], of arena: [UInt8], by precedes: Precedes) {
        arena.withUnsafeBytes { bytes in
            starts.sort {
                $0.prefix != $1.prefix ? $0.prefix < $1.prefix
                    : precedes(bytes.lengthPrefixedRecord(at: $0.start), bytes.lengthPrefixedRecord(at: $1.start))
            }
        }
    }

    /// Sorts an arena's records and writes them, in order, to a new scratch file.
    private static func writeRun(_ arena: [UInt8], _ starts: inout [(prefix: UInt64, start: Int)],
                                 precedes: Precedes, directory: String) throws(IndexBuildError) -> ScratchFile {
        sort(&starts, of: arena, by: precedes)
        let file = try ScratchFile(directory: directory)
        var failure: IndexBuildError?
        arena.withUnsafeBytes { bytes in
            do throws(IndexBuildError) {
                for (_, start) in starts {
                    // The run keeps the layout: the length, then the record.
                    let record = bytes.lengthPrefixedRecord(at: start)
                    try file.append(UnsafeRawBufferPointer(rebasing: bytes[start ..< start + 4 + record.count]))
                }
            } catch { failure = error }
        }
        if let failure { throw failure }
        try file.finishWriting()
        return file
    }

    /// Hands the full arena to a worker that writes it as a run, and goes on with the other
    /// arena (the previous run's, once it is written).
    private func spill() throws(IndexBuildError) {
        let spare = try collectPendingRun()
        let run = PendingRun(arena: arena, starts: starts)
        arena = spare?.arena ?? []
        starts = spare?.starts ?? []
        if spare == nil { arena.reserveCapacity(arenaBudget) }
        let precedes = self.precedes, directory = self.directory
        run.worker = WorkerThread(name: "sort run") {
            do throws(IndexBuildError) {
                run.file = try Self.writeRun(run.arena, &run.starts, precedes: precedes, directory: directory)
            } catch { run.failure = error }
        }
        pending = run
    }

    /// Waits for the pending run, adds it to `runs` and returns its emptied buffers to reuse.
    private func collectPendingRun() throws(IndexBuildError) -> (arena: [UInt8], starts: [(prefix: UInt64, start: Int)])? {
        guard let run = pending else { return nil }
        run.worker.join()
        pending = nil
        if let failure = run.failure { throw failure }
        guard let file = run.file else { preconditionFailure("a joined run has a file or a failure") }
        runs.append(file)
        run.arena.removeAll(keepingCapacity: true)
        run.starts.removeAll(keepingCapacity: true)
        return (run.arena, run.starts)
    }

    /// The records in order. The sorter is spent: append nothing after this.
    func sorted(mergeBufferBudget: Int) throws(IndexBuildError) -> SortedRecords {
        if runs.isEmpty, pending == nil {
            Self.sort(&starts, of: arena, by: precedes)
            let records = SortedRecords(arena: arena, starts: starts)
            arena = []
            starts = []
            return records
        }
        _ = try collectPendingRun()
        if !starts.isEmpty { runs.append(try Self.writeRun(arena, &starts, precedes: precedes, directory: directory)) }
        arena = []
        starts = []
        let bufferByteCount = min(4 << 20, max(64 << 10, mergeBufferBudget / runs.count))
        return SortedRecords(runs: runs, bufferByteCount: bufferByteCount, prefix: prefix, precedes: precedes)
    }
}

/// An arena handed to a `WorkerThread` to be sorted and written as a run: the worker owns it
/// until `worker.join()` returns (`WorkerThread`'s contract), then the sorter reads `file` or
/// `failure` and takes the buffers back.
private final class PendingRun {
    var arena: [UInt8]
    var starts: [(prefix: UInt64, start: Int)]
    var file: ScratchFile?
    var failure: IndexBuildError?
    var worker: WorkerThread!

    init(arena: [UInt8], starts: [(prefix: UInt64, start: Int)]) {
        self.arena = arena
        self.starts = starts
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
///
/// When runs were spilled, a `RunMerger` merges them on a `WorkerThread` and hands the
/// records over in batches of about `batchByteCount` bytes (at most four waiting), so that
/// merging and the caller's work on the records use both cores.
final class SortedRecords {
    // In memory:
    private var arena: [UInt8]
    private var starts: [(prefix: UInt64, start: Int)]
    private var position = 0
    // Merged on a worker: batches of records as (u32 length, bytes), back to back.
    private let handOff: HandOff<[UInt8], IndexBuildError>?
    private let worker: WorkerThread?
    @exclusivity(unchecked) private var batch: [UInt8] = []
    @exclusivity(unchecked) private var batchOffset = 0

    fileprivate init(arena: [UInt8], starts: [(prefix: UInt64, start: Int)]) {
        self.arena = arena
        self.starts = starts
        handOff = nil
        worker = nil
    }

    fileprivate init(runs: [ScratchFile], bufferByteCount: Int, batchByteCount: Int = 1 << 20,
                     prefix: @escaping ExternalSorter.Prefix, precedes: @escaping ExternalSorter.Precedes) {
        arena = []
        starts = []
        let handOff = HandOff<[UInt8], IndexBuildError>(capacity: 4)
        self.handOff = handOff
        worker = WorkerThread(name: "merge runs") {
            do throws(IndexBuildError) {
                let merger = try RunMerger(runs: runs, bufferByteCount: bufferByteCount, prefix: prefix, precedes: precedes)
                var batch: [UInt8] = []
                batch.reserveCapacity(batchByteCount + 4096)
                while let record = try merger.next() {
                    batch.appendLengthPrefixed(record)
                    guard batch.count >= batchByteCount else { continue }
                    guard handOff.send(batch) else { return handOff.finish() }
                    batch = []
                    batch.reserveCapacity(batchByteCount + 4096)
                }
                if !batch.isEmpty { _ = handOff.send(batch) }
                handOff.finish()
            } catch {
                handOff.finish(throwing: error)
            }
        }
    }

    deinit {
        handOff?.close()
        worker?.join()
    }

    /// The next record (valid until the next call), or nil after the last.
    func next() throws(IndexBuildError) -> UnsafeRawBufferPointer? {
        guard let handOff else {
            guard position < starts.count else { return nil }
            let start = starts[position].start
            position += 1
            // The arena is not mutated while records are read: the pointer stays valid.
            return arena.withUnsafeBytes { $0.lengthPrefixedRecord(at: start) }
        }
        if batchOffset == batch.count {
            guard let next = try handOff.receive() else { return nil }
            batch = next
            batchOffset = 0
        }
        let offset = batchOffset
        // The batch is not mutated until it is replaced by the next: the pointer stays valid.
        let record = batch.withUnsafeBytes { $0.lengthPrefixedRecord(at: offset) }
        batchOffset = offset + 4 + record.count
        return record
    }
}

/// Merges sorted runs: one reader per run, a binary heap of the runs whose current record is
/// unread, ordered by the records' sort prefixes and then by `precedes`. O(log *k*)
/// comparisons per record for *k* runs.
private final class RunMerger {
    private let prefix: ExternalSorter.Prefix
    private let precedes: ExternalSorter.Precedes
    // Touched for every record merged: no dynamic exclusivity checks (a merger is used by one
    // thread, and its accesses never overlap: `less` reads `current` while `heap` is mutated,
    // different properties).
    @exclusivity(unchecked) private var readers: [ScratchFileReader] = []
    @exclusivity(unchecked) private var current: [UnsafeRawBufferPointer] = []
    @exclusivity(unchecked) private var currentPrefix: [UInt64] = []
    @exclusivity(unchecked) private var heap = BinaryHeap<Int>()
    private let runs: [ScratchFile]
    /// The run whose record was yielded last, to advance before the next.
    @exclusivity(unchecked) private var yielded: Int?

    init(runs: [ScratchFile], bufferByteCount: Int, prefix: @escaping ExternalSorter.Prefix,
         precedes: @escaping ExternalSorter.Precedes) throws(IndexBuildError) {
        self.prefix = prefix
        self.precedes = precedes
        self.runs = runs
        readers = runs.map { ScratchFileReader($0, bufferByteCount: bufferByteCount) }
        current = Array(repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: runs.count)
        currentPrefix = Array(repeating: 0, count: runs.count)
        for run in runs.indices where try advance(run) { heap.push(run, by: less) }
    }

    deinit { for reader in readers { reader.deallocate() } }

    /// The next record (valid until the next call), or nil after the last.
    func next() throws(IndexBuildError) -> UnsafeRawBufferPointer? {
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
        let record = try readers[run].next(length)
        current[run] = record
        currentPrefix[run] = prefix(record)
        return true
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        currentPrefix[a] != currentPrefix[b] ? currentPrefix[a] < currentPrefix[b] : precedes(current[a], current[b])
    }
}
