// IndexBuilder.swift: city list in, index file out.
import CityIndex
import CityIndexArtifacts
import Foundation

/// Compiles a city list (plain, gzip or xz JSON) into an index file.
///
/// Streams the input record by record (no JSON tree) and sorts what it must with an external
/// sort bounded by `memoryLimit` (sorted runs spill to scratch files and are merged), so
/// lists of tens of millions of cities build in about the same memory as small ones. The
/// output is deterministic: the same cities in any input order, with any memory limit, give
/// byte-identical files.
///
/// A build uses two cores or more: the list is parsed on a thread of its own while the caller's
/// thread prepares each city; sorted runs are written, and merged, by worker threads; the word
/// postings are made on one thread while the per-city sections are laid out on another; the
/// three top lists are computed at once. Stages meet only through bounded hand-offs
/// (`HandOff`), so memory stays within the limit, and errors arrive in input order, as a
/// single-threaded build would meet them. An `IndexBuilder` value is not shared between builds:
/// each `build` call runs its own threads.
public struct IndexBuilder: Sendable {
    /// Inputs that decompress to more bytes than this are rejected (default 4 GiB).
    public var maximumInputByteCount: Int
    /// Called now and then with the bytes read so far and the input's size, when known (on
    /// the build's reading thread, not the caller's).
    public var progress: (@Sendable (_ byteCountRead: Int, _ totalByteCount: Int?) -> Void)?

    /// The names of the countries and regions the cities are in (`CTRY`, `REGN`); `nil` (the
    /// default) stores the cities' region codes without names, and no country names.
    public var places: PlaceNames?

    /// Which alternate names to store for word matching (default: all).
    public var alternateNames: AlternateNameSelection = .all
    /// Called as each phase after reading begins, with its name ("ordering": sorting or merging
    /// the cities into search order; "records": every per-city section and the name trie;
    /// "word index": the word postings and their trie; "top lists"; "writing"), so that
    /// progress shows what a long build is doing.
    public var phaseStarted: (@Sendable (_ phase: String) -> Void)?
    /// About how much memory the build may use for its sorts, in bytes (default 1 GiB, at
    /// least `minimumMemoryLimit`, 1 MiB). Past it, sorted runs spill to scratch files and are merged (an external
    /// sort): half of it for the cities while the list is read, a quarter for the word postings
    /// while the records are written (each sort's share in two arenas: one fills while a
    /// worker writes the other), an eighth for each merge's read buffers. Beyond it the
    /// build holds a few bytes per city (the last word posting of each city, 4 bytes) and the
    /// names of one run of equal keys. The index's bytes do not depend on it.
    public var memoryLimit = 1 << 30
    /// The least `memoryLimit` honoured.
    public static let minimumMemoryLimit = 1 << 20
    /// Where scratch files go (sorted runs, sections in the making): by default the output's
    /// directory for `build(inputPath:outputPath:)`, the system's temporary directory otherwise.
    /// They are unlinked as soon as they are created, so nothing is left behind.
    public var scratchDirectory: String?
    /// The format's 32-bit limits (tests lower them).
    package var limits = BuildLimits()

    /// Limits the fold table to these scalars. Only for tools that need tiny files (a fuzzer's
    /// starting corpus): other scalars then fold to themselves, which is not SEARCH.md folding.
    /// `nil` (the default) writes the full table.
    public var foldTableScalars: ClosedRange<UInt32>?

    private var foldSectionBytes: [UInt8] {
        foldTableScalars.map { FoldTableGenerator.sectionBytes(limitedTo: $0) } ?? Self.foldSectionBytes
    }

    public init(maximumInputByteCount: Int = 4 << 30,
                progress: (@Sendable (_ byteCountRead: Int, _ totalByteCount: Int?) -> Void)? = nil) {
        self.maximumInputByteCount = maximumInputByteCount
        self.progress = progress
    }

    /// Builds from the file at `inputPath` ("-" for standard input) and writes the index to
    /// `outputPath` atomically. On any error nothing is written there.
    ///
    /// The file is written section by section as the build produces them (`SpooledIndexFile`),
    /// never held whole in memory; it needs free disk space for about twice the index beside
    /// `outputPath`. The bytes are those of `build(inputPath:)`.
    public func build(inputPath: String, outputPath: String) throws(IndexBuildError) -> BuildSummary {
        do {
            return try AtomicFileWriter.write(to: outputPath) { descriptor, temporaryPath in
                try build(inputPath: inputPath, into: descriptor, openedBy: temporaryPath, name: outputPath)
            }
        } catch {
            throw .wrapping(error)
        }
    }

    /// Builds from the file at `inputPath` into `descriptor`, an empty file open for reading
    /// and writing that `path` also opens (for `build-index --compress`, which builds into a
    /// file with no name and compresses it). `name` stands for the output in errors, and its
    /// directory holds the scratch files unless `scratchDirectory` is set.
    package func build(inputPath: String, intoEmptyFile descriptor: Int32, openedBy path: String,
                       name: String) throws(IndexBuildError) -> BuildSummary {
        do {
            return try build(inputPath: inputPath, into: descriptor, openedBy: path, name: name)
        } catch {
            throw .wrapping(error)
        }
    }

    private func build(inputPath: String, into descriptor: Int32, openedBy path: String, name: String) throws -> BuildSummary {
        let (source, file, format) = try InputReading.open(path: inputPath, maximumByteCount: maximumInputByteCount)
        return try build(source: source, format: format,
                         reportProgress: { [progress] in progress?(file.byteCountRead, file.knownByteCount) },
                         into: try SpooledIndexFile(output: descriptor, outputPath: path, name: name),
                         scratchDirectory: scratchDirectory ?? Self.directory(of: name))
    }

    /// Builds the index from the file at `inputPath` ("-" for standard input), in memory.
    public func build(inputPath: String) throws(IndexBuildError) -> BuiltIndex {
        do {
            let (source, file, format) = try InputReading.open(path: inputPath, maximumByteCount: maximumInputByteCount)
            return try buildInMemory(source: source, format: format) { [progress] in progress?(file.byteCountRead, file.knownByteCount) }
        } catch {
            throw .wrapping(error)
        }
    }

    /// Builds the index file's bytes from JSON (or compressed JSON) in memory.
    public func build(jsonBytes: [UInt8]) throws(IndexBuildError) -> BuiltIndex {
        do {
            let (source, format) = try ArtifactCodec.decompressing(MemorySource(jsonBytes), maximumByteCount: maximumInputByteCount)
            return try buildInMemory(source: source, format: format) {}
        } catch {
            throw .wrapping(error)
        }
    }

    private func buildInMemory(source: ByteSource, format: CompressionFormat, reportProgress: @escaping () -> Void) throws -> BuiltIndex {
        let sections = InMemorySections()
        let summary = try build(source: source, format: format, reportProgress: reportProgress, into: sections,
                                scratchDirectory: scratchDirectory ?? Self.temporaryDirectory)
        return BuiltIndex(chunks: sections.chunks, summary: summary)
    }

    /// Parses the list, lays out every section and hands it to `sink`, which writes the file.
    ///
    /// Three passes, each in bounded memory (issue 15): the list is parsed (on a worker) and
    /// each city prepared into an `ExternalSorter` (sorted runs spill to scratch files once it
    /// holds half of `memoryLimit`); the merged runs give the cities in search order to a
    /// `RecordsPass` (every section indexed by rank) and to a `WordPostingEmitter` (the word
    /// postings into a second sorter, on its own thread); the merged postings give `WNOD` and
    /// `WPST` (`WordIndexPass`). The top lists are then computed from the sections laid out
    /// as a draft index, one thread each. `BuildSummary.phases` times each pass.
    private func build(source: ByteSource, format: CompressionFormat, reportProgress: @escaping () -> Void,
                       into sink: some IndexSectionSink, scratchDirectory: String) throws -> BuildSummary {
        let start = ContinuousClock.now
        let foldSectionBytes = self.foldSectionBytes
        let folder = try Folder(foldSectionBytes: foldSectionBytes)
        let parser = CityListParser(source: source)
        let limit = max(memoryLimit, Self.minimumMemoryLimit)
        var sizes: [BuildSummary.SectionSize] = []
        var phases: [BuildSummary.PhaseTime] = []
        var phase = (name: "reading", start: start)
        func endPhase() {
            phases.append(.init(name: phase.name, seconds: Self.seconds(ContinuousClock.now - phase.start)))
        }
        func startPhase(_ name: String) {
            endPhase()
            phase = (name, ContinuousClock.now)
            phaseStarted?(name)
        }
        func add(_ kind: SectionKind, _ isRequired: Bool, _ parts: [SectionPart]) throws(IndexBuildError) {
            let byteCount = parts.reduce(0) { $0 + $1.byteCount }
            let isTrie = kind == .nodes || kind == .wordNodes
            let maximum = isTrie ? limits.maximumTrieSectionByteCount : limits.maximumSectionByteCount
            guard byteCount <= maximum else {
                throw IndexBuildError.formatLimitExceeded(
                    "the \(kind) section would be \(byteCount) bytes, over the \(maximum) its "
                    + "\(isTrie ? "31-bit child distances" : "32-bit offsets") address (FORMAT.md §10); split the list into several indexes")
            }
            try sink.add(kind: kind, isRequired: isRequired, parts: parts)
            sizes.append(BuildSummary.SectionSize(kind: kind, byteCount: byteCount))
        }

        // Pass 1: parse, fold, choose the alternates to keep, sort into search order.
        var preparer = CityPreparer(folder: folder, selection: alternateNames, limits: limits)
        let cities = ExternalSorter(memoryBudget: limit / 2, directory: scratchDirectory, prefix: keyPrefix, precedes: CityBlob.precedes)
        var blob: [UInt8] = []
        try parser.parseOnWorker(reportProgress: reportProgress) { city in
            try preparer.prepare(city, into: &blob)
            try cities.append(blob)
        }
        let cityCount = preparer.cityCount
        try add(.foldTable, true, [.bytes(foldSectionBytes)])
        let symbols = NameSymbolsWriter.trained(on: preparer.symbolSample.names)
        try add(.nameSymbols, true, [.bytes(symbols.sectionBytes)])

        // Pass 2: the cities in search order.
        startPhase("ordering")
        let ranked = try cities.sorted(mergeBufferBudget: limit / 8)
        startPhase("records")
        var writer = try RecordsPass(preparer: preparer, symbols: symbols, places: places, directory: scratchDirectory,
                                     idBudget: limit / 16)
        // The word postings of the same cities are made and sorted on a second thread.
        let emitter = WordPostingEmitter(foldTable: folder.table, postings: ExternalSorter(
            memoryBudget: limit / 4, directory: scratchDirectory, prefix: keyPrefix, precedes: WordPostingBlob.precedes))
        while let city = try ranked.next() {
            try writer.add(CityBlob(bytes: city))
            try emitter.add(city)
        }
        let postings = try emitter.finish()
        try writer.finish(add: add)
        let spilledRunCount = cities.spilledRunCount + postings.spilledRunCount

        // Pass 3: the word index.
        startPhase("word index")
        var words = WordIndexPass(largestInlineChildReference: limits.largestInlineChildReference)
        try words.write(try postings.sorted(mergeBufferBudget: limit / 8), cityCount: cityCount,
                        directory: scratchDirectory, add: add)

        // The top lists come from searching the finished tries: open them, search, then add.
        startPhase("top lists")
        let lists: [(SectionKind, SectionKind, ResultOrder)] = [
            (.nodeTopLists, .nodes, .population), (.wordTopLists, .wordNodes, .population), (.wordAlphabeticalLists, .wordNodes, .alphabetical),
        ]
        let topListSections = try {
            let draft = try sink.openDraft(cityCount: cityCount, totalSectionCount: sizes.count + lists.count)
            // The three are independent reads of the draft (a Sendable, read-only index): one thread each.
            return try WorkerThread.runAll(lists.map { kind, trie, order in
                {
                    IndexFileWriter.Section(kind: kind, isRequired: false, bytes: TopListsWriter.sectionBytes(
                        lists: try draft.topLists(of: trie, order: order, length: FormatConstants.topListLength,
                                                  minimumEntryCount: FormatConstants.topListMinimumEntryCount),
                        length: FormatConstants.topListLength))
                }
            })
        }()
        for section in topListSections {
            try sink.append(section)
            sizes.append(BuildSummary.SectionSize(kind: section.kind, byteCount: section.bytes.count))
        }
        startPhase("writing")
        let fileByteCount = try sink.finish(cityCount: cityCount)
        endPhase()
        let summary = BuildSummary(
            cityCount: cityCount, distinctKeyCount: writer.distinctKeyCount, trieNodeCount: writer.nodeCount,
            wordKeyCount: words.keyCount, wordPostingCount: words.postingCount, wordTrieNodeCount: words.nodeCount,
            foldTableEntryCount: folder.table.entryCount,
            sections: IndexFileWriter.sortedInFileOrder(sizes) { $0.kind },
            fileByteCount: fileByteCount, inputByteCount: parser.byteOffset, inputFormat: format,
            elapsedSeconds: Self.seconds(ContinuousClock.now - start),
            spilledRunCount: spilledRunCount, phases: phases,
            controlCharacterCount: parser.controlCharacters.count, firstControlCharacter: parser.controlCharacters.first)
        return summary
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// The directory part of `path` ("." when it has none): where scratch files go by default.
    package static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    private static var temporaryDirectory: String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? NSTemporaryDirectory()
        return directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    }

    /// The fold table of this platform's Unicode data, generated once per process.
    package static let foldSectionBytes: [UInt8] = FoldTableGenerator.sectionBytes()

    package static func folder() throws -> Folder { try Folder(foldSectionBytes: foldSectionBytes) }
}

/// Which alternate names an index stores (each stored name costs its text, about 6 bytes of
/// directory and the postings and trie nodes of its words).
public enum AlternateNameSelection: String, Sendable, CaseIterable {
    /// Every alternate name of the input.
    case all
    /// Only names written in Latin letters (every letter below U+0250, or in Latin Extended
    /// Additional U+1E00–U+1EFF): the exonyms and transliterations a Latin keyboard types.
    case latin
    /// None: word matching then covers the primary names only.
    case none

    func includes(_ name: [UInt8]) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .latin:
            return String(decoding: name, as: UTF8.self).unicodeScalars.allSatisfy { scalar in
                !scalar.properties.isAlphabetic || scalar.value < 0x250 || (0x1E00...0x1EFF).contains(scalar.value)
            }
        }
    }
}

/// A built index file, kept as the chunks it is written from.
public struct BuiltIndex: Sendable {
    /// Consecutive pieces of the file (header, padding, sections).
    public let chunks: [[UInt8]]
    public let summary: BuildSummary

    /// The whole file in one array.
    public var bytes: [UInt8] { Array(chunks.joined()) }
}
