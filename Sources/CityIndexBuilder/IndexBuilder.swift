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
    /// Called as each phase after reading begins, with its name ("ordering", "word index",
    /// "records", "tries", "top lists"), so that progress shows what a long build is doing.
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
    public func build(inputPath: String, outputPath: String) throws(IndexBuildError) -> BuildSummary {
        let index = try build(inputPath: inputPath)
        do {
            try AtomicFileWriter.write(chunks: index.chunks, to: outputPath)
        } catch {
            throw .wrapping(error)
        }
        return index.summary
    }

    /// Builds the index from the file at `inputPath` ("-" for standard input).
    public func build(inputPath: String) throws(IndexBuildError) -> BuiltIndex {
        do {
            let (source, file, format) = try InputReading.open(path: inputPath, maximumByteCount: maximumInputByteCount)
            return try build(source: source, format: format) { [progress] in progress?(file.byteCountRead, file.knownByteCount) }
        } catch {
            throw .wrapping(error)
        }
    }

    /// Builds the index file's bytes from JSON (or compressed JSON) in memory.
    public func build(jsonBytes: [UInt8]) throws(IndexBuildError) -> BuiltIndex {
        do {
            let (source, format) = try ArtifactCodec.decompressing(MemorySource(jsonBytes), maximumByteCount: maximumInputByteCount)
            return try build(source: source, format: format) {}
        } catch {
            throw .wrapping(error)
        }
    }

    private func build(source: ByteSource, format: CompressionFormat,
                       reportProgress: () -> Void) throws -> BuiltIndex {
        let start = ContinuousClock.now
        let foldSectionBytes = self.foldSectionBytes
        let folder = try Folder(foldSectionBytes: foldSectionBytes)
        let parser = CityListParser(source: source)
        let order: SearchOrder
        let words: WordPostingLayout
        let keyArena: [UInt8]
        let wordKeyArena: [UInt8]
        let cityCount: Int
        var sections: [IndexFileWriter.Section] = [IndexFileWriter.Section(kind: .foldTable, isRequired: true, bytes: foldSectionBytes)]
        do {
            // The collection's records are dropped as soon as they are laid out.
            var collection = CityCollection()
            try parser.parse { city in
                try collection.append(city, folder: folder, alternateNames: alternateNames, limits: limits)
                if collection.count % 16_384 == 0 { reportProgress() }
            }
            reportProgress()
            phaseStarted?("ordering")
            order = try SearchOrder(collection: collection)
            phaseStarted?("word index")
            words = WordPostingLayout(collection: collection, order: order)
            phaseStarted?("records")
            let symbols = NameSymbolsWriter.trained(on: collection.alternateNameTexts)
            let (cityBytes, nameBytes) = CityRecordsWriter.sectionBytes(collection: collection, order: order)
            sections += [
                IndexFileWriter.Section(kind: .nameSymbols, isRequired: true, bytes: symbols.sectionBytes),
                IndexFileWriter.Section(kind: .cities, isRequired: true, bytes: cityBytes),
                IndexFileWriter.Section(kind: .names, isRequired: true, bytes: nameBytes),
                IndexFileWriter.Section(kind: .alternateNames, isRequired: true,
                                        bytes: AlternateNamesWriter.sectionBytes(collection: collection, order: order, symbols: symbols)),
                IndexFileWriter.Section(kind: .idIndex, isRequired: true, bytes: IDIndexWriter.sectionBytes(order: order)),
            ]
            if order.hasPopulation {
                sections += [
                    IndexFileWriter.Section(kind: .population, isRequired: false,
                                            bytes: PopulationsWriter.sectionBytes(collection: collection, order: order)),
                    IndexFileWriter.Section(kind: .populationOrder, isRequired: false, bytes: NodeEntryRanksWriter.sectionBytes(order: order)),
                ]
            }
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
        let postingRanks = words.postingRanks, postingSlots = words.postingSlots
        let (wordNodeBytes, wordNodeCount) = TrieSectionWriter.sectionBytes(
            keyArena: wordKeyArena, keys: words.keys,
            entries: TrieSectionWriter.Entries(count: postingRanks.count, precedes: { a, b in
                order.populationOrderKey(rank: Int(postingRanks[a]), slot: Int(postingSlots[a]))
                    < order.populationOrderKey(rank: Int(postingRanks[b]), slot: Int(postingSlots[b]))
            }, cityOfEntry: ({ Int(postingRanks[$0]) }, cityCount), bucketCapacity: IndexLayout.wordBucketCapacity))
        sections += [
            IndexFileWriter.Section(kind: .nodes, isRequired: true, bytes: nodeBytes),
            IndexFileWriter.Section(kind: .wordNodes, isRequired: true, bytes: wordNodeBytes),
            IndexFileWriter.Section(kind: .wordPostings, isRequired: true,
                                    bytes: WordPostingsWriter.sectionBytes(ranks: postingRanks, slots: postingSlots, cityCount: cityCount)),
        ]
        for section in sections {
            let isTrie = section.kind == .nodes || section.kind == .wordNodes
            let limit = isTrie ? limits.maximumTrieSectionByteCount : limits.maximumSectionByteCount
            guard section.bytes.count > limit else { continue }
            throw IndexBuildError.formatLimitExceeded(
                "the \(section.kind) section would be \(section.bytes.count) bytes, over the \(limit) its "
                + "\(isTrie ? "31-bit child distances" : "32-bit offsets") address (FORMAT.md §10); split the list into several indexes")
        }
        sections.sort { IndexFileWriter.sectionOrder.firstIndex(of: $0.kind)! < IndexFileWriter.sectionOrder.firstIndex(of: $1.kind)! }
        // The top lists come from searching the finished tries: open them, search, then add.
        phaseStarted?("top lists")
        let draft = try CityIndex(chunks: IndexFileWriter.fileChunks(cityCount: cityCount, sections: sections))
        let lists: [(SectionKind, SectionKind, ResultOrder)] = [
            (.nodeTopLists, .nodes, .population), (.wordTopLists, .wordNodes, .population), (.wordAlphabeticalLists, .wordNodes, .alphabetical),
        ]
        sections += try lists.map { kind, trie, order in
            IndexFileWriter.Section(kind: kind, isRequired: false, bytes: TopListsWriter.sectionBytes(
                lists: try draft.topLists(of: trie, order: order, length: IndexLayout.topListLength,
                                          minimumEntryCount: IndexLayout.topListMinimumEntryCount),
                length: IndexLayout.topListLength))
        }
        let chunks = IndexFileWriter.fileChunks(cityCount: cityCount, sections: sections)
        let elapsed = ContinuousClock.now - start
        let summary = BuildSummary(
            cityCount: cityCount, distinctKeyCount: order.distinctKeys.count, trieNodeCount: nodeCount,
            wordKeyCount: words.keys.count, wordPostingCount: postingRanks.count, wordTrieNodeCount: wordNodeCount,
            foldTableEntryCount: folder.table.entryCount,
            sections: sections.map { BuildSummary.SectionSize(kind: $0.kind, byteCount: $0.bytes.count) },
            fileByteCount: chunks.reduce(0) { $0 + $1.count }, inputByteCount: parser.byteOffset, inputFormat: format,
            elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        return BuiltIndex(chunks: chunks, summary: summary)
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
