// ArtifactDownload.swift: one source's bytes streamed into a file, counted, hashed, bounded.
import CityIndexArtifacts
import Foundation

/// Streams a source (a file, or an http(s) URL) into an open file descriptor, computing the
/// SHA-256 and the byte count as the bytes arrive. Nothing is held in memory beyond one chunk;
/// the byte limit and the three timeouts of `IndexStore.Limits` are enforced as it runs.
enum ArtifactDownload {
    typealias RefreshError = IndexStore.RefreshError

    struct Outcome: Sendable {
        let byteCount: Int
        let sha256: String
    }

    /// Copies the regular file at `path` (a FIFO or device is refused without blocking).
    static func copyFile(at path: String, into output: Int32, limits: IndexStore.Limits) throws(RefreshError) -> Outcome {
        let input = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw .cannotFetch(source: path, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .cannotFetch(source: path, reason: "it is not a regular file")
        }
        var writer = HashingWriter(descriptor: output, limit: limits.maximumDownloadByteCount)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .cannotFetch(source: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return writer.finish()
    }

    /// Downloads `url`, dropping it when a limit is crossed: with libcurl where it is the
    /// system's HTTP library (Linux: FoundationNetworking's `URLSession`, built on it, keeps
    /// a core busy while a server is silent or trickles), with `URLSession` on Apple platforms.
    static func download(_ url: URL, into output: Int32, limits: IndexStore.Limits,
                         allowsInsecureHTTP: Bool) async throws(RefreshError) -> Outcome {
        let writer = HashingWriter(descriptor: output, limit: limits.maximumDownloadByteCount)
        #if canImport(CCurl)
        let transfer = CurlTransfer(url: url, writer: writer, limits: limits, allowsInsecureHTTP: allowsInsecureHTTP)
        #else
        let transfer = URLSessionTransfer(url: url, writer: writer, limits: limits, allowsInsecureHTTP: allowsInsecureHTTP)
        #endif
        return try await transfer.run()
    }
}

/// Writes bytes to a descriptor while hashing and counting them, refusing more than `limit`.
struct HashingWriter {
    let descriptor: Int32
    let limit: Int
    private(set) var byteCount = 0
    private var hasher = SHA256()

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(IndexStore.RefreshError) {
        guard bytes.count <= limit - byteCount else { throw .downloadTooLarge(limit: limit) }
        hasher.update(bytes)
        let failure = DescriptorWriting.writeAll(bytes, to: descriptor)
        guard failure == 0 else {
            throw .cannotWriteCache(path: "(temporary download file)", reason: String(cString: strerror(failure)))
        }
        byteCount += bytes.count
    }

    func finish() -> ArtifactDownload.Outcome {
        ArtifactDownload.Outcome(byteCount: byteCount, sha256: SHA256.hex(hasher.finalize()))
    }
}

