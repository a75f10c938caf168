// MaximumInputAdvice.swift: what to say when an input decompresses past its limit.

/// The message for an input refused for decompressing to more than a `--max-input-bytes`
/// limit. It gives the input's real size, counted without keeping the bytes up to 4 times the
/// limit, so that the limit it suggests works the first time; past that (what a decompression
/// bomb looks like) or for standard input, which cannot be read twice, it says so instead.
package struct MaximumInputAdvice {
    /// The message, to follow "… decompresses to ".
    package let text: String

    /// Counts `path`'s decompressed bytes: O(min(size, 4 × `limit`)) time, one 64 KiB buffer.
    package init(path: String, limit: Int) {
        let countingLimit = limit > Int.max / 4 ? Int.max : limit * 4
        let guardNote = "the --max-input-bytes limit of \(limit) guards against decompression bombs"
        if let size = InputReading.decompressedByteCount(path: path, upTo: countingLimit) {
            text = "\(size) bytes, more than \(limit): \(guardNote); if the input is genuine, pass --max-input-bytes \(size)"
        } else if path == "-" {
            text = "more than \(limit) bytes: \(guardNote); if the input is genuine, pass a larger --max-input-bytes"
        } else {
            text = "more than \(countingLimit) bytes (4 times the limit, where counting stopped): \(guardNote); "
                + "if the input is genuine, pass --max-input-bytes with its decompressed size"
        }
    }
}
