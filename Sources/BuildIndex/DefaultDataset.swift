// DefaultDataset.swift: where Data/cities500.json.xz is when no input is given.
import Foundation

struct DatasetNotFound: Error, CustomStringConvertible {
    let candidates: [String]
    var description: String {
        "no input given and the default dataset is not at \(candidates.joined(separator: " or ")); pass INPUT"
    }
}

/// The project's default dataset: `Data/cities500.json.xz` under the current directory, or
/// under the package this tool was built from.
enum DefaultDataset {
    static let relativePath = "Data/cities500.json.xz"

    static func path() throws -> String {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [relativePath, packageRoot.appendingPathComponent(relativePath).path]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw DatasetNotFound(candidates: candidates)
        }
        return found
    }
}
