// CityListParser+Worker.swift: parsing on a second thread while the caller consumes the records.
import Foundation

extension CityListParser {
    /// `parse(_:)` on a `WorkerThread`: the worker reads, decompresses and validates the list
    /// and hands the records over in batches; `body` runs on the calling thread, with each
    /// record in input order, while the worker reads ahead (at most `batchCount` batches of
    /// `batchSize` records wait). The first error is the one a single thread would meet: the
    /// caller sees every record before the parser's error, and a `body` error stops the worker.
    ///
    /// `reportProgress` is called on the worker after every 16,384 records and at the end
    /// (it reads the input's counters, which belong to the worker while it reads).
    /// The parser belongs to the worker until this returns.
    func parseOnWorker(batchSize: Int = 256, batchCount: Int = 8, reportProgress: @escaping () -> Void,
                       _ body: (ParsedCity) throws -> Void) throws {
        let handOff = HandOff<[ParsedCity], IndexBuildError>(capacity: batchCount)
        let worker = WorkerThread(name: "parse") { [self] in
            struct ConsumerStopped: Error {}
            var batch: [ParsedCity] = []
            batch.reserveCapacity(batchSize)
            var recordCount = 0
            do {
                try parse { city in
                    batch.append(city)
                    recordCount += 1
                    if recordCount % 16_384 == 0 { reportProgress() }
                    guard batch.count == batchSize else { return }
                    guard handOff.send(batch) else { throw ConsumerStopped() }
                    batch = []
                    batch.reserveCapacity(batchSize)
                }
                reportProgress()
                if !batch.isEmpty { _ = handOff.send(batch) }
                handOff.finish()
            } catch is ConsumerStopped {
                handOff.finish()
            } catch {
                handOff.finish(throwing: .wrapping(error))
            }
        }
        defer { worker.join() }
        do {
            while let batch = try handOff.receive() {
                for city in batch { try body(city) }
            }
        } catch {
            handOff.close()
            throw error
        }
    }
}
