// InputError.swift: reading or decompressing the input failed.

/// Why the input could not be read, as opposed to what is wrong with its JSON
/// (`CityListError`).
public enum InputError: Error, Equatable, Sendable {
    case cannotOpen(path: String, reason: String)
    case readFailed(path: String, reason: String)
    case corruptCompressedData(format: CompressionFormat, detail: String)
    case truncatedCompressedData(format: CompressionFormat)
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
            return "the input decompresses to more than \(limit) bytes; raise --max-input-bytes if it is genuine"
        }
    }
}

/// How the input is compressed, detected from its first bytes.
public enum CompressionFormat: String, Sendable, CustomStringConvertible {
    case none = "plain"
    case gzip
    case xz

    public var description: String { rawValue }

    /// gzip starts `1F 8B`; xz starts `FD 37 7A 58 5A 00`; anything else is read as is.
    static func detect(fromPrefix prefix: [UInt8]) -> CompressionFormat {
        if prefix.starts(with: [0x1F, 0x8B]) { return .gzip }
        if prefix.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        return .none
    }
}
