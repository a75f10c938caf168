// SharedData.swift: finding ../shared (the real city list and the spec's vectors).
import Foundation

/// Locates the shared folder from the `CITYINDEX_SHARED` environment variable. Tests that
/// need it skip, saying why, when it is not set or not there.
public enum SharedData {
    public static let environmentVariable = "CITYINDEX_SHARED"

    /// The shared folder, or `nil` when `CITYINDEX_SHARED` is unset or names no folder.
    public static var directory: URL? {
        guard let path = ProcessInfo.processInfo.environment[environmentVariable], !path.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// A file under the shared folder, if present.
    public static func file(_ relativePath: String) -> URL? {
        guard let url = directory?.appendingPathComponent(relativePath),
              FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url
    }

    /// The package root (where Package.swift is), from this source file's location.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
