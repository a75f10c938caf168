// ConcurrentBuildTests.swift: the build's worker threads (issue 15: both cores) and their hand-offs.
import CityIndexBuilder
import Foundation
import Testing

@Suite("A build on two threads: hand-offs, workers, errors in input order")
struct ConcurrentBuildTests {
    struct Failure: Error, Equatable { let tag: Int }

    @Test("a hand-off delivers every value in order, then the producer's error")
    func handOffOrderAndError() throws {
        let handOff = HandOff<Int, Failure>(capacity: 3)
        let worker = WorkerThread(name: "producer") {
            for value in 0 ..< 10_000 { _ = handOff.send(value) }
            handOff.finish(throwing: Failure(tag: 7))
        }
        defer { worker.join() }
        var received: [Int] = []
        #expect(throws: Failure(tag: 7)) {
            while let value = try handOff.receive() { received.append(value) }
        }
        #expect(received == Array(0 ..< 10_000))
        // After the error, the hand-off is simply over.
        #expect(try handOff.receive() == nil)
    }

    @Test("a consumer that closes early stops a producer blocked on a full hand-off")
    func closeStopsProducer() throws {
        let handOff = HandOff<Int, Never>(capacity: 2)
        let accepted = Counter()
        let worker = WorkerThread(name: "producer") {
            var value = 0
            while handOff.send(value) { accepted.add(); value += 1 }
            handOff.finish()
        }
        for expected in 0 ..< 5 { #expect(handOff.receive() == expected) }
        handOff.close()
        worker.join()   // would hang if the producer stayed blocked
        // Five received, and at most the capacity waiting when it closed.
        #expect((5 ... 7).contains(accepted.value), "\(accepted.value) sends accepted")
    }

    @Test("runAll returns the results in task order and throws the first failing task's error, after every task returned")
    func runAllOrderAndErrors() throws {
        let results = try WorkerThread.runAll((0 ..< 5).map { index in { index * index } })
        #expect(results == [0, 1, 4, 9, 16])
        let slowTaskFinished = Counter()
        #expect(throws: Failure(tag: 1)) {
            _ = try WorkerThread.runAll([
                { 0 },
                { Thread.sleep(forTimeInterval: 0.05); throw Failure(tag: 1) },
                { throw Failure(tag: 2) },
                { Thread.sleep(forTimeInterval: 0.2); slowTaskFinished.add(); return 3 },
            ])
        }
        #expect(slowTaskFinished.value == 1, "runAll threw before every task returned")
        #expect(try WorkerThread.runAll([() throws -> Int]()) == [])
    }

    @Test("the first error in input order wins while the reader runs ahead: a limit crossed early, not the broken JSON at the end")
    func firstErrorInInputOrder() throws {
        var json = BoundedMemoryBuildTests.syntheticList(count: 20_000, seed: 3)
        json.removeLast()                       // the closing bracket
        json += Array(",\n{\"_id\": oops}\n]".utf8)
        var builder = IndexBuilder()
        builder.memoryLimit = IndexBuilder.minimumMemoryLimit
        do throws(IndexBuildError) {
            _ = try builder.build(jsonBytes: json)
            Issue.record("a broken list was built")
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.line == 20_003 && listError.column == 9, "\(listError)")   // the "o" of oops
        }
        builder.limits.maximumArenaByteCount = 5_000
        do throws(IndexBuildError) {
            _ = try builder.build(jsonBytes: json)
            Issue.record("a list past the text limit was built")
        } catch {
            guard case .invalidCityList(let listError) = error else { Issue.record("\(error)"); return }
            #expect(listError.message.contains("too large for one index") && listError.line < 1_000, "\(listError)")
        }
    }

    @Test("progress is reported from the reading thread up to the whole input, and the summary times every phase")
    func progressAndPhases() throws {
        let json = BoundedMemoryBuildTests.syntheticList(count: 40_000, seed: 9)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cities.json")
        try Data(json).write(to: input)
        let reports = Reports()
        var builder = IndexBuilder { read, total in reports.add(read, total) }
        builder.memoryLimit = IndexBuilder.minimumMemoryLimit
        let summary = try builder.build(inputPath: input.path, outputPath: directory.appendingPathComponent("cities.cidx").path)
        let seen = reports.values
        #expect(seen.count >= 2)
        #expect(seen.map(\.read) == seen.map(\.read).sorted())
        #expect(seen.last?.read == json.count && seen.allSatisfy { $0.total == json.count })
        #expect(summary.phases.map(\.name) == ["reading", "ordering", "records", "word index", "top lists", "writing"])
        #expect(summary.phases.allSatisfy { $0.seconds >= 0 })
        #expect(summary.phases.reduce(0) { $0 + $1.seconds } <= summary.elapsedSeconds)
        #expect(summary.json.contains("\"phases\": [{\"name\": \"reading\", \"seconds\": "))
    }
}

/// A count written by one thread and read by another.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Progress reports, as the callback (on the build's reading thread) saw them.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [(read: Int, total: Int?)] = []
    func add(_ read: Int, _ total: Int?) { lock.withLock { reports.append((read, total)) } }
    var values: [(read: Int, total: Int?)] { lock.withLock { reports } }
}
