// IndexBuilder.swift: city list in, index file out.
import CityIndex
import CityIndexArtifacts
import Foundation

/// Compiles a city list (plain, gzip or xz JSON) into an index file.
///
/// Streams the input record by record (no JSON tree): memory holds the validated records
/// in compact form (about 40 bytes per city plus its name and folded key), so lists of many
/// millions of cities remain possible. The output is deterministic: the same cities in any
/// input order give byte-identical files.
public struct IndexBuilder: Sendable {
    /// Inputs that decompress to more bytes than this are rejected (default 4 GiB).
    public var maximumInputByteCount: Int
    /// Called now and then with the bytes read so far and the input's size, when known.
    public var progress: (@Sendable (_ byteCountRead: Int, _ totalByteCount: Int?) -> Void)?

    /// Which alternate names to store for word matching (default: all).
    public var alternateNames: AlternateNameSelection = .all
    /// Called as each phase after reading begins, with its name ("ordering", "records",
    /// "word index", "tries", "top lists", "writing"), so that progress shows what a long
    /// build is doing.
    public var phaseStarted: (@Sendable (_ phase: String) -> Void)?
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
                let (source, file, format) = try InputReading.open(path: inputPath, maximumByteCount: maximumInputByteCount)
                return try build(source: source, format: format,
                                 reportProgress: { [progress] in progress?(file.byteCountRead, file.knownByteCount) },
                                 into: try SpooledIndexFile(output: descriptor, outputPath: temporaryPath))
            }
        } catch {
            throw .wrapping(error)
        }
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

    private func buildInMemory(source: ByteSource, format: CompressionFormat, reportProgress: () -> Void) throws -> BuiltIndex {
        let sections = InMemorySections()
        let summary = try build(source: source, format: format, reportProgress: reportProgress, into: sections)
        return BuiltIndex(chunks: sections.chunks, summary: summary)
    }

    /// Parses the list, lays out every section and hands it to `sink`, which writes the file.
    private func build(source: ByteSource, format: CompressionFormat, reportProgress: () -> Void,
                       into sink: some IndexSectionSink) throws -> BuildSummary {
        let start = ContinuousClock.now
        let foldSectionBytes = self.foldSectionBytes
        let folder = try Folder(foldSectionBytes: foldSectionBytes)
        let parser = CityListParser(source: source)
        let order: SearchOrder
        let words: WordPostingLayout
        let keyArena: [UInt8]
        let wordKeyArena: [UInt8]
        let cityCount: Int
        var sizes: [BuildSummary.SectionSize] = []
        func add(_ kind: SectionKind, isRequired: Bool, _ bytes: [UInt8]) throws {
            let isTrie = kind == .nodes || kind == .wordNodes
            let limit = isTrie ? limits.maximumTrieSectionByteCount : limits.maximumSectionByteCount
            guard bytes.count <= limit else {
                throw IndexBuildError.formatLimitExceeded(
                    "the \(kind) section would be \(bytes.count) bytes, over the \(limit) its "
                    + "\(isTrie ? "31-bit child distances" : "32-bit offsets") address (FORMAT.md §10); split the list into several indexes")
            }
            try sink.add(IndexFileWriter.Section(kind: kind, isRequired: isRequired, bytes: bytes))
            sizes.append(BuildSummary.SectionSize(kind: kind, byteCount: bytes.count))
        }
        do {
            // The collection's records are dropped as soon as they are laid out.
            var collection = CityCollection()
            try parser.parse { city in
                try collection.append(city, folder: folder, alternateNames: alternateNames, limits: limits)
                if collection.count % 16_384 == 0 { reportProgress() }
            }
            reportProgress()
            try add(.foldTable, isRequired: true, foldSectionBytes)
            phaseStarted?("ordering")
            order = try SearchOrder(collection: collection)
            // The records before the word index: their sections go to the sink (a spool when
            // writing a file) before the postings and their sort take their memory.
            phaseStarted?("records")
            let symbols = NameSymbolsWriter.trained(on: collection.alternateNameTexts)
            try add(.nameSymbols, isRequired: true, symbols.sectionBytes)
            let (cityBytes, nameBytes) = CityRecordsWriter.sectionBytes(collection: collection, order: order)
            try add(.cities, isRequired: true, cityBytes)
            try add(.names, isRequired: true, nameBytes)
            try add(.alternateNames, isRequired: true, AlternateNamesWriter.sectionBytes(collection: collection, order: order, symbols: symbols))
            try add(.idIndex, isRequired: true, IDIndexWriter.sectionBytes(order: order))
            if order.hasPopulation {
                try add(.population, isRequired: false, PopulationsWriter.sectionBytes(collection: collection, order: order))
                try add(.populationOrder, isRequired: false, NodeEntryRanksWriter.sectionBytes(order: order))
            }
            phaseStarted?("word index")
            words = WordPostingLayout(collection: collection, order: order, foldTable: folder.table)
            keyArena = collection.keyArena
            wordKeyArena = collection.wordKeyArena
            cityCount = collection.count
        }
        phaseStarted?("tries")
        let rankOfNodeEntry = order.rankOfNodeEntry
        let (nodeBytes, nodeCount) = TrieSectionWriter.sectionBytes(
            keyArena: keyArena, keys: order.distinctKeys,
            entries: TrieSectionWriter.Entries(count: cityCount, precedes: { a, b in
                order.populationOrderKey(rank: Int(rankOfNodeEntry[a]), slot: 0) < order.populationOrderKey(rank: Int(rankOfNodeEntry[b]), slot: 0)
            }))
        try add(.nodes, isRequired: true, nodeBytes)
        let postingRanks = words.postingRanks, postingSlots = words.postingSlots, postingDemotions = words.postingDemotions
        let (wordNodeBytes, wordNodeCount) = TrieSectionWriter.sectionBytes(
            keyArena: wordKeyArena, keys: words.keys,
            entries: TrieSectionWriter.Entries(count: postingRanks.count, precedes: { a, b in
                order.populationOrderKey(rank: Int(postingRanks[a]), slot: Int(postingSlots[a]), isDemoted: postingDemotions[a])
                    < order.populationOrderKey(rank: Int(postingRanks[b]), slot: Int(postingSlots[b]), isDemoted: postingDemotions[b])
            }, cityOfEntry: ({ Int(postingRanks[$0]) }, cityCount), bucketCapacity: IndexLayout.wordBucketCapacity))
        try add(.wordNodes, isRequired: true, wordNodeBytes)
        try add(.wordPostings, isRequired: true, WordPostingsWriter.sectionBytes(ranks: postingRanks, slots: postingSlots, demoted: postingDemotions,
                                                                                   cityCount: cityCount))
        // The top lists come from searching the finished tries: open them, search, then add.
        phaseStarted?("top lists")
        let lists: [(SectionKind, SectionKind, ResultOrder)] = [
            (.nodeTopLists, .nodes, .population), (.wordTopLists, .wordNodes, .population), (.wordAlphabeticalLists, .wordNodes, .alphabetical),
        ]
        let topListSections = try {
            let draft = try sink.openDraft(cityCount: cityCount, totalSectionCount: sizes.count + lists.count)
            return try lists.map { kind, trie, order in
                IndexFileWriter.Section(kind: kind, isRequired: false, bytes: TopListsWriter.sectionBytes(
                    lists: try draft.topLists(of: trie, order: order, length: IndexLayout.topListLength,
                                              minimumEntryCount: IndexLayout.topListMinimumEntryCount),
                    length: IndexLayout.topListLength))
            }
        }()
        for section in topListSections {
            try sink.append(section)
            sizes.append(BuildSummary.SectionSize(kind: section.kind, byteCount: section.bytes.count))
        }
        phaseStarted?("writing")
        let fileByteCount = try sink.finish(cityCount: cityCount)
        let elapsed = ContinuousClock.now - start
        let summary = BuildSummary(
            cityCount: cityCount, distinctKeyCount: order.distinctKeys.count, trieNodeCount: nodeCount,
            wordKeyCount: words.keys.count, wordPostingCount: postingRanks.count, wordTrieNodeCount: wordNodeCount,
            foldTableEntryCount: folder.table.entryCount,
            sections: IndexFileWriter.sortedInFileOrder(sizes) { $0.kind },
            fileByteCount: fileByteCount, inputByteCount: parser.byteOffset, inputFormat: format,
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        return summary
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
