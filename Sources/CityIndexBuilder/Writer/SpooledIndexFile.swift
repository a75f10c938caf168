// SpooledIndexFile.swift: an index file written section by section, never whole in memory.
import CityIndex
import CityIndexArtifacts
import Foundation

/// Writes an index file without holding it in memory (issue 15: at 10 million cities the file
/// is 650 MB, and the in-memory build held it twice, once more for the draft it computes the
/// top lists from).
///
/// The builder produces sections out of file order (records before tries), so each is first
/// appended to a **spool**, an unlinked scratch file beside the output, and dropped from
/// memory. `openDraft` lays the sections out into the output file exactly where the
/// in-memory layout (`IndexFileWriter.fileChunks`) puts them, given the final section count,
/// and maps it as an index (its header lists the sections so far, enough to search); the top
/// lists computed from it are appended with `append`, and `finish` writes the final header
/// and stamps the checksum, read back from the file. The bytes are those of the in-memory
/// build (a test compares them).
///
/// Disk: the spool and the output, about twice the index. Memory: one section at a time, plus
/// a 1 MiB copy buffer.
final class SpooledIndexFile: IndexSectionSink {
    private let output: Int32
    private let outputPath: String
    private let name: String
    private let spool: Int32
    /// Sections in the spool: where each lies there.
    private var spooled: [(kind: SectionKind, isRequired: Bool, spoolOffset: Int, byteCount: Int)] = []
    private var spoolEnd = 0
    /// Sections in the output so far, and where the last one ends.
    private var placements: [IndexFileWriter.Placement] = []
    private var end = 0
    private var tableEntryCount = 0

    /// - Parameters:
    ///   - output: the output file, open for reading and writing and empty.
    ///   - outputPath: a path that opens it (to map the draft).
    ///   - name: the path the file is written for (to name it in errors; the spool is made
    ///     beside it).
    init(output: Int32, outputPath: String, name: String) throws(IndexBuildError) {
        self.output = output
        self.outputPath = outputPath
        self.name = name
        // Nameless, or unlinked at once: the space is freed when the spool is closed, whatever happens.
        let directory = URL(fileURLWithPath: name).deletingLastPathComponent().path
        do {
            spool = try TemporaryFile.createNameless(in: directory, prefix: "." + URL(fileURLWithPath: name).lastPathComponent + ".spool-").descriptor
        } catch {
            throw Self.failure(name, error.errno)
        }
    }

    deinit { close(spool) }

    /// Keeps `section` in the spool until the draft is laid out.
    func add(_ section: IndexFileWriter.Section) throws(IndexBuildError) {
        try write(section.bytes, to: spool, at: spoolEnd)
        spooled.append((section.kind, section.isRequired, spoolEnd, section.bytes.count))
        spoolEnd += section.bytes.count
    }

    /// Keeps a section given as parts in the spool, copying scratch files through a buffer.
    func add(kind: SectionKind, isRequired: Bool, parts: [SectionPart]) throws(IndexBuildError) {
        let start = spoolEnd
        for part in parts {
            switch part {
            case .bytes(let bytes):
                try write(bytes, to: spool, at: spoolEnd)
                spoolEnd += bytes.count
            case .file(let file):
                try file.forEachChunk { chunk throws(IndexBuildError) in
                    try write(chunk, to: spool, at: spoolEnd)
                    spoolEnd += chunk.count
                }
            }
        }
        spooled.append((kind, isRequired, start, spoolEnd - start))
    }

    /// Lays the spooled sections out in file order into the output, leaving room for a table
    /// of `totalSectionCount` entries (the spooled ones and those `append` will add), and
    /// maps the result. The spool is emptied. O(bytes).
    func openDraft(cityCount: Int, totalSectionCount: Int) throws(IndexBuildError) -> CityIndex {
        tableEntryCount = totalSectionCount
        let ordered = IndexFileWriter.sortedInFileOrder(spooled) { $0.kind }
        (placements, end) = IndexFileWriter.place(ordered.map { ($0.kind, $0.isRequired, $0.byteCount) }, tableEntryCount: totalSectionCount)
        for (section, placement) in zip(ordered, placements) {
            try forEachChunk(of: spool, from: section.spoolOffset, count: section.byteCount) { chunk, position throws(IndexBuildError) in
                try write(chunk, to: output, at: placement.offset + position - section.spoolOffset)
            }
        }
        spooled = []
        ftruncate(spool, 0)
        try writeHeader(cityCount: cityCount)
        do {
            return try CityIndex(path: outputPath)
        } catch {
            throw .internalInconsistency("the draft index does not open: \(error)")
        }
    }

    /// Appends `section` after the last one (8-byte aligned).
    func append(_ section: IndexFileWriter.Section) throws(IndexBuildError) {
        let (placement, newEnd) = IndexFileWriter.place([(section.kind, section.isRequired, section.bytes.count)],
                                                        tableEntryCount: tableEntryCount, after: end)
        try write(section.bytes, to: output, at: placement[0].offset)
        placements += placement
        end = newEnd
    }

    /// Writes the final header and its checksum (FORMAT.md §8, read back from the file).
    /// Returns the file's size. O(bytes).
    func finish(cityCount: Int) throws(IndexBuildError) -> Int {
        precondition(placements.count == tableEntryCount, "the draft reserved room for \(tableEntryCount) sections")
        try writeHeader(cityCount: cityCount)
        var checksum: UInt32 = 0
        try forEachChunk(of: output, from: 0, count: end) { chunk, _ in checksum = CRC32.update(checksum, with: chunk) }
        try write((0 ..< 4).map { UInt8(truncatingIfNeeded: checksum >> (8 * UInt32($0))) }, to: output, at: FormatConstants.checksumOffset)
        return end
    }

    /// The header listing the sections placed so far, the file's size (the end of the last
    /// one, so the zero gap before the first section sorts itself out), checksum zero.
    private func writeHeader(cityCount: Int) throws(IndexBuildError) {
        guard ftruncate(output, off_t(end)) == 0 else { throw Self.failure(name, errno) }
        let header = IndexFileWriter.headerBytes(cityCount: cityCount, placements: placements, fileByteCount: end)
        try write(header, to: output, at: 0)
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int) throws(IndexBuildError) {
        let failure = bytes.withUnsafeBytes { DescriptorWriting.writeAll($0, to: descriptor, at: offset) }
        guard failure == 0 else { throw Self.failure(name, failure) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) throws(IndexBuildError) {
        let failure = DescriptorWriting.writeAll(bytes, to: descriptor, at: offset)
        guard failure == 0 else { throw Self.failure(name, failure) }
    }

    /// Reads bytes `offset ..< offset + count` of `descriptor` in chunks of up to 1 MiB and
    /// calls `body` with each and the offset it was read from.
    private func forEachChunk(of descriptor: Int32, from offset: Int, count: Int,
                              _ body: (UnsafeRawBufferPointer, Int) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        while position < offset + count {
            let read = pread(descriptor, buffer.baseAddress!, min(buffer.count, offset + count - position), off_t(position))
            guard read > 0 else { throw Self.failure(name, read < 0 ? errno : EIO) }
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<read]), position)
            position += read
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> IndexBuildError {
        .cannotWrite(path: path, reason: String(cString: strerror(code)), isNotReplaceable: false)
    }
}
