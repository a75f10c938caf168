// SpooledIndexFile.swift: an index file written section by section, never whole in memory.
import CityIndex
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
    ///   - outputPath: its path (to map the draft and to name it in errors).
    init(output: Int32, outputPath: String) throws(IndexBuildError) {
        self.output = output
        self.outputPath = outputPath
        var template = Array((outputPath + ".spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure(outputPath, errno) }
        // Unlinked at once: the space is freed when the spool is closed, whatever happens.
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        spool = descriptor
    }

    deinit { close(spool) }

    /// Keeps `section` in the spool until the draft is laid out.
    func add(_ section: IndexFileWriter.Section) throws(IndexBuildError) {
        try write(section.bytes, to: spool, at: spoolEnd)
        spooled.append((section.kind, section.isRequired, spoolEnd, section.bytes.count))
        spoolEnd += section.bytes.count
    }

    /// Lays the spooled sections out in file order into the output, leaving room for a table
    /// of `totalSectionCount` entries (the spooled ones and those `append` will add), and
    /// maps the result. The spool is emptied. O(bytes).
    func openDraft(cityCount: Int, totalSectionCount: Int) throws(IndexBuildError) -> CityIndex {
        tableEntryCount = totalSectionCount
        let ordered = IndexFileWriter.sortedInFileOrder(spooled) { $0.kind }
        (placements, end) = IndexFileWriter.place(ordered.map { ($0.kind, $0.isRequired, $0.byteCount) }, tableEntryCount: totalSectionCount)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for (section, placement) in zip(ordered, placements) {
            var copied = 0
            while copied < section.byteCount {
                let count = pread(spool, buffer.baseAddress!, min(buffer.count, section.byteCount - copied), off_t(section.spoolOffset + copied))
                guard count > 0 else { throw Self.failure(outputPath, count < 0 ? errno : EIO) }
                if let failure = write(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: output, at: placement.offset + copied) {
                    throw failure
                }
                copied += count
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
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var checksum: UInt32 = 0
        var offset = 0
        while offset < end {
            let count = pread(output, buffer.baseAddress!, min(buffer.count, end - offset), off_t(offset))
            guard count > 0 else { throw Self.failure(outputPath, count < 0 ? errno : EIO) }
            checksum = CRC32.update(checksum, with: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += count
        }
        try write((0 ..< 4).map { UInt8(truncatingIfNeeded: checksum >> (8 * UInt32($0))) }, to: output, at: IndexLayout.checksumOffset)
        return end
    }

    /// The header listing the sections placed so far, the file's size (the end of the last
    /// one, so the zero gap before the first section sorts itself out), checksum zero.
    private func writeHeader(cityCount: Int) throws(IndexBuildError) {
        guard ftruncate(output, off_t(end)) == 0 else { throw Self.failure(outputPath, errno) }
        let header = IndexFileWriter.headerBytes(cityCount: cityCount, placements: placements, fileByteCount: end)
        try write(header, to: output, at: 0)
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32, at offset: Int) throws(IndexBuildError) {
        if let failure = bytes.withUnsafeBytes({ write($0, to: descriptor, at: offset) }) { throw failure }
    }

    /// Writes all of `bytes` at `offset`; returns the error instead of throwing it (callable
    /// from the closures of `withUnsafeBytes`, which do not carry typed errors).
    @discardableResult
    private func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) -> IndexBuildError? {
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return Self.failure(outputPath, count < 0 ? errno : EIO) }
            written += count
        }
        return nil
    }

    private static func failure(_ path: String, _ code: Int32) -> IndexBuildError {
        .cannotWrite(path: path, reason: String(cString: strerror(code)), isNotReplaceable: false)
    }
}
