// InputError.swift: reading, decompressing or compressing bytes failed.
import Foundation

/// Why a city list or an index artifact could not be read (as opposed to what is wrong with
/// its content: `CityListError` for JSON, `IndexFileError` for an index).
public enum InputError: Error, Equatable, Sendable {
    /// `open` failed, or the path names something that is not a readable file.
    case cannotOpen(path: String, reason: String)
    /// `read` failed after the file was open.
    case readFailed(path: String, reason: String)
    /// The compressed stream is invalid (or, when compressing, the codec failed).
    case corruptCompressedData(format: CompressionFormat, detail: String)
    /// The compressed stream ends before its end marker.
    case truncatedCompressedData(format: CompressionFormat)
    /// More than `limitByteCount` bytes came out of the input (a decompression bomb, or a
    /// genuinely larger input than the caller allows).
    case inputTooLarge(limitByteCount: Int)
}

extension InputError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open '\(path)': \(reason)"
        case .readFailed(let path, let reason): return "cannot read '\(path)': \(reason)"
        case .corruptCompressedData(let format, let detail): return "the \(format) data is corrupt: \(detail)"
        case .truncatedCompressedData(let format): return "the \(format) data ends before its stream does (truncated file?)"
        case .inputTooLarge(let limit):
            return "the input decompresses to more than \(limit) bytes; if it is genuine, raise the limit (build-index: --max-input-bytes)"
        }
    }
}

extension InputError: LocalizedError {
    public var errorDescription: String? { description }
}
