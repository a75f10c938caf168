// CityIndexRelease.swift: which release this is and which file formats it reads.

/// The package's release and the index file format versions it reads and writes
/// (CHANGELOG.md explains the two numbers).
public enum CityIndexRelease {
    /// This package's version, `MAJOR.MINOR.PATCH` (Semantic Versioning; the git tag of the release).
    public static let version = "0.17.0"
    /// The format versions this reader opens (FORMAT.md §2); `build-index` writes the highest.
    public static var readableFormats: ClosedRange<UInt32> { FormatConstants.supportedVersions }
    /// "0.10.0 (index format 7-8)": what `--version` prints (the formats it reads; it writes the last).
    public static var description: String {
        let formats = readableFormats
        let formatText = formats.lowerBound == formats.upperBound ? "\(formats.upperBound)" : "\(formats.lowerBound)-\(formats.upperBound)"
        return "\(version) (index format \(formatText))"
    }
}
