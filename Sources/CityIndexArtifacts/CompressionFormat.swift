// CompressionFormat.swift: how an input or an artifact is compressed, from its first bytes.

/// How a city list or an index artifact is compressed. Detected from the content, never
/// from a file name.
public enum CompressionFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case none = "plain"
    case gzip
    case xz

    public var description: String { rawValue }

    /// The most leading bytes `detect(fromPrefix:)` looks at.
    package static let magicByteCount = 6

    /// gzip starts `1F 8B`; xz starts `FD 37 7A 58 5A 00`; anything else is read as is.
    package static func detect(fromPrefix prefix: some Collection<UInt8>) -> CompressionFormat {
        if prefix.starts(with: [0x1F, 0x8B]) { return .gzip }
        if prefix.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        return .none
    }
}
