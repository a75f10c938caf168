// IndexSectionSink.swift: where IndexBuilder puts the sections it builds.
import CityIndex

/// Receives the sections of one build and makes the file of them: in memory
/// (`InMemorySections`, for `build(jsonBytes:)` and `build(inputPath:)`) or in the output
/// file (`SpooledIndexFile`, for `build(inputPath:outputPath:)`). Both lay the sections out
/// with `IndexFileWriter`, so they make the same bytes.
///
/// Calls come in this order: `add` for each section but the top lists (any order: they are
/// laid out in file order), `openDraft` to search them, `append` for each top list (in file
/// order), `finish`.
protocol IndexSectionSink: AnyObject {
    /// Keeps a section until the draft is laid out.
    func add(_ section: IndexFileWriter.Section) throws(IndexBuildError)
    /// Keeps a section given as parts (bytes in memory and scratch files, in order).
    func add(kind: SectionKind, isRequired: Bool, parts: [SectionPart]) throws(IndexBuildError)
    /// The sections added so far laid out as an index, with room in the section table for
    /// `totalSectionCount` sections (those added and those `append` will add).
    func openDraft(cityCount: Int, totalSectionCount: Int) throws(IndexBuildError) -> CityIndex
    /// Adds a section after the draft's.
    func append(_ section: IndexFileWriter.Section) throws(IndexBuildError)
    /// Completes the file (header and checksum); returns its size in bytes.
    func finish(cityCount: Int) throws(IndexBuildError) -> Int
}

/// The sections kept in memory; `chunks` is the file once `finish` ran.
final class InMemorySections: IndexSectionSink {
    private var sections: [IndexFileWriter.Section] = []
    private(set) var chunks: [[UInt8]] = []

    func add(_ section: IndexFileWriter.Section) { sections.append(section) }

    func add(kind: SectionKind, isRequired: Bool, parts: [SectionPart]) throws(IndexBuildError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.byteCount })
        for part in parts {
            switch part {
            case .bytes(let piece): bytes += piece
            case .file(let file): try file.forEachChunk { chunk in bytes.append(contentsOf: chunk) }
            }
        }
        sections.append(IndexFileWriter.Section(kind: kind, isRequired: isRequired, bytes: bytes))
    }

    func openDraft(cityCount: Int, totalSectionCount: Int) throws(IndexBuildError) -> CityIndex {
        do {
            return try CityIndex(chunks: IndexFileWriter.fileChunks(cityCount: cityCount, sections: IndexFileWriter.sortedInFileOrder(sections) { $0.kind }))
        } catch {
            throw .internalInconsistency("the draft index does not open: \(error)")
        }
    }

    func append(_ section: IndexFileWriter.Section) { sections.append(section) }

    func finish(cityCount: Int) -> Int {
        chunks = IndexFileWriter.fileChunks(cityCount: cityCount, sections: IndexFileWriter.sortedInFileOrder(sections) { $0.kind })
        sections = []
        return chunks.reduce(0) { $0 + $1.count }
    }
}
