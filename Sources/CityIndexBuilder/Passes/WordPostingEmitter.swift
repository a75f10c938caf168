// WordPostingEmitter.swift: the word postings of every name, produced on a thread of their own.
import CityIndex

/// Turns the cities of the second pass (in search order: a city's rank is its position) into
/// their word postings (WORDS.md §1: one per suffix key of each name's words) and sorts them
/// in an `ExternalSorter`, on a `WorkerThread`, while `RecordsPass` lays out the
/// per-city sections from the same cities on the calling thread.
///
/// `add` copies each `CityBlob` into a batch (1 MiB) and hands full batches to the worker
/// (at most four waiting); `finish()` hands over the last, waits for the worker and returns
/// the postings' sorter. The worker owns the sorter until then (`WorkerThread`'s contract).
/// An error of the worker (a scratch file that cannot be written) stops the hand-off, and
/// the next `add` or `finish` throws it; an emitter dropped without `finish` stops its worker.
///
/// - Complexity: O(total name length) folding and the sort's O(*p* log *p*) for *p* postings.
final class WordPostingEmitter {
    /// Batches from the caller's thread, which cannot fail, to the worker.
    private let handOff = HandOff<[UInt8], Never>(capacity: 4)
    private let worker: WorkerThread
    private let state: WorkerState
    @exclusivity(unchecked) private var batch: [UInt8] = []   // appended to per city, by one thread
    private static let batchByteCount = 1 << 20

    /// What the worker owns until `join()`: the sorter, and its error if it stopped.
    private final class WorkerState {
        let postings: ExternalSorter
        var failure: IndexBuildError?
        init(postings: ExternalSorter) { self.postings = postings }
    }

    init(foldTable: FoldTable, postings: ExternalSorter) {
        let state = WorkerState(postings: postings)
        let handOff = self.handOff
        self.state = state
        worker = WorkerThread(name: "word postings") {
            var rank: UInt32 = 0
            var buffers = Buffers()
            do throws(IndexBuildError) {
                while let batch = handOff.receive() {
                    var failure: IndexBuildError?
                    batch.withUnsafeBytes { bytes in
                        var offset = 0
                        while offset < bytes.count, failure == nil {
                            let city = bytes.lengthPrefixedRecord(at: offset)
                            do throws(IndexBuildError) {
                                try Self.emitPostings(of: CityBlob(bytes: city), rank: rank, foldTable: foldTable,
                                                      into: state.postings, buffers: &buffers)
                            } catch { failure = error }
                            rank += 1
                            offset += 4 + city.count
                        }
                    }
                    if let failure { throw failure }
                }
            } catch {
                state.failure = error
                handOff.close()
            }
        }
        batch.reserveCapacity(Self.batchByteCount + 4096)
    }

    deinit {
        handOff.close()
        worker.join()
    }

    /// Queues the city of the next rank.
    func add(_ city: UnsafeRawBufferPointer) throws(IndexBuildError) {
        batch.appendLengthPrefixed(city)
        guard batch.count >= Self.batchByteCount else { return }
        try send()
    }

    /// Emits the rest, waits for the worker and returns the sorter with every posting.
    func finish() throws(IndexBuildError) -> ExternalSorter {
        if !batch.isEmpty { try send() }
        handOff.finish()
        worker.join()
        if let failure = state.failure { throw failure }
        return state.postings
    }

    private func send() throws(IndexBuildError) {
        let full = batch
        batch = []
        batch.reserveCapacity(Self.batchByteCount + 4096)
        guard handOff.send(full) else {
            worker.join()
            throw state.failure ?? .internalInconsistency("the word posting worker stopped without an error")
        }
    }

    /// One posting per suffix key of each word of each name (WORDS.md §1); demoted for later
    /// words of alternates and for machine-made alternates (WORDS.md §5).
    private static func emitPostings(of city: CityBlob, rank: UInt32, foldTable: FoldTable, into postings: ExternalSorter,
                                     buffers: inout Buffers) throws(IndexBuildError) {
        let weight = city.weight
        try city.forEachName { slot, text, looksMachineMade throws(IndexBuildError) in
            WordKey.encode(utf8: text, with: foldTable, into: &buffers.wordKey, wordStarts: &buffers.wordStarts)
            for (wordIndex, start) in buffers.wordStarts.enumerated() {
                WordPostingBlob.encode(suffixKey: buffers.wordKey[start...], rank: rank, slot: UInt16(slot),
                                         isDemoted: slot > 0 && (wordIndex > 0 || looksMachineMade), weight: weight,
                                         into: &buffers.record)
                try postings.append(buffers.record)
            }
        }
    }

    /// The worker's scratch buffers, reused for every name.
    private struct Buffers {
        var wordKey: [UInt8] = []
        var wordStarts: [Int] = []
        var record: [UInt8] = []
    }
}
