// ScratchFile.swift: an unlinked temporary file written once, front to back, and read back.
import CityIndexArtifacts
import Foundation

/// A temporary file for data a bounded-memory build cannot hold (issue 15): sorted runs
/// (`ExternalSorter`), and section contents produced before the header that precedes them.
///
/// Created in `directory` with no name (`TemporaryFile.createNameless`), so its space is freed when it is closed
/// (`deinit`), whatever happens to the build. Appends go through a 1 MiB buffer; once
/// `finishWriting` ran, the bytes are read back in chunks (`forEachChunk`, `Reader`).
///
/// Memory: the 1 MiB buffer while writing; nothing while reading but the reader's buffer.
final class ScratchFile {
    let directory: String
    private let descriptor: Int32
    @exclusivity(unchecked) private var buffer: [UInt8] = []   // appended to per record, by one thread at a time
    /// Bytes written so far (including those still in the buffer).
    private(set) var byteCount = 0
    private static let bufferByteCount = 1 << 20

    init(directory: String) throws(IndexBuildError) {
        self.directory = directory
        do {
            descriptor = try TemporaryFile.createNameless(in: directory, prefix: ".cityindex-scratch-").descriptor
        } catch {
            throw Self.failure(directory, error.errno)
        }
        buffer.reserveCapacity(Self.bufferByteCount)
    }

    deinit { close(descriptor) }

    func append(_ bytes: UnsafeRawBufferPointer) throws(IndexBuildError) {
        if buffer.count + bytes.count > Self.bufferByteCount { try flush() }
        if bytes.count >= Self.bufferByteCount {
            try write(bytes, at: byteCount - buffer.count)
        } else {
            buffer.append(bytes: bytes)
        }
        byteCount += bytes.count
    }

    func append(_ bytes: [UInt8]) throws(IndexBuildError) {
        var failure: IndexBuildError?
        bytes.withUnsafeBytes { raw in
            do throws(IndexBuildError) { try append(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes what the buffer holds; call before reading.
    func finishWriting() throws(IndexBuildError) {
        try flush()
        buffer = []
    }

    private func flush() throws(IndexBuildError) {
        guard !buffer.isEmpty else { return }
        let start = byteCount - buffer.count
        var failure: IndexBuildError?
        buffer.withUnsafeBytes { raw in
            do throws(IndexBuildError) { try write(raw, at: start) } catch { failure = error }
        }
        if let failure { throw failure }
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(IndexBuildError) {
        let code = DescriptorWriting.writeAll(bytes, to: descriptor, at: offset)
        guard code == 0 else { throw Self.failure(directory, code) }
    }

    /// Reads bytes `offset ..< offset + count` into `destination` (all of them). O(count).
    func read(into destination: UnsafeMutableRawBufferPointer, at offset: Int) throws(IndexBuildError) {
        var done = 0
        while done < destination.count {
            let got = pread(descriptor, destination.baseAddress! + done, destination.count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw Self.failure(directory, got < 0 ? errno : EIO) }
            done += got
        }
    }

    /// Calls `body` with the file's bytes in order, in chunks of up to 1 MiB.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferByteCount, alignment: 16)
        defer { chunk.deallocate() }
        var position = 0
        while position < byteCount {
            let count = min(chunk.count, byteCount - position)
            let part = UnsafeMutableRawBufferPointer(rebasing: chunk[..<count])
            try read(into: part, at: position)
            try body(UnsafeRawBufferPointer(part))
            position += count
        }
    }

    /// The whole file in memory (for sinks that keep sections in memory).
    func allBytes() throws(IndexBuildError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        try forEachChunk { chunk in bytes.append(contentsOf: chunk) }
        return bytes
    }

    static func failure(_ directory: String, _ code: Int32) -> IndexBuildError {
        .cannotWrite(path: directory, reason: "scratch file: " + String(cString: strerror(code)), isNotReplaceable: false)
    }
}

/// Reads a `ScratchFile` front to back through a buffer of a chosen size.
struct ScratchFileReader {
    private let file: ScratchFile
    private var buffer: UnsafeMutableRawBufferPointer
    private var bufferStart = 0
    private var bufferEnd = 0
    /// The file offset of `buffer[0]`.
    private var fileOffset = 0
    private let end: Int

    init(_ file: ScratchFile, range: Range<Int>? = nil, bufferByteCount: Int) {
        self.file = file
        let range = range ?? 0 ..< file.byteCount
        fileOffset = range.lowerBound
        end = range.upperBound
        buffer = .allocate(byteCount: max(bufferByteCount, 64), alignment: 16)
    }

    func deallocate() { buffer.deallocate() }

    var isAtEnd: Bool { bufferStart == bufferEnd && fileOffset + bufferEnd >= end }

    /// Makes the next `count` bytes contiguous and returns them (valid until the next call);
    /// grows the buffer when `count` is larger than it.
    mutating func next(_ count: Int) throws(IndexBuildError) -> UnsafeRawBufferPointer {
        if bufferEnd - bufferStart < count {
            // Move what is left to the front, then fill.
            let left = bufferEnd - bufferStart
            if count > buffer.count {
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
                larger.baseAddress!.copyMemory(from: buffer.baseAddress! + bufferStart, byteCount: left)
                buffer.deallocate()
                buffer = larger
            } else if left > 0 {
                memmove(buffer.baseAddress!, buffer.baseAddress! + bufferStart, left)
            }
            fileOffset += bufferStart
            bufferStart = 0
            bufferEnd = left
            let fill = min(buffer.count - left, end - (fileOffset + left))
            guard fill >= count - left else {
                throw .internalInconsistency("a scratch file ends inside a record")
            }
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[left ..< left + fill]), at: fileOffset + left)
            bufferEnd = left + fill
        }
        defer { bufferStart += count }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[bufferStart ..< bufferStart + count])
    }
}
