// DefaultDataset.swift: which input build-index reads when none is given.
import Foundation

struct DatasetNotFound: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "no INPUT given and the default dataset is not at \(path); pass INPUT, run from a checkout of the package, "
            + "or set \(DefaultDataset.environmentVariable)"
    }
}

/// The project's default dataset: `$CITYINDEX_DEFAULT_DATASET` when set, else
/// `Data/cities500.json.xz` relative to the current directory. Never a path of the machine the
/// tool was built on: an installed `build-index` behaves the same wherever it was compiled.
enum DefaultDataset {
    static let environmentVariable = "CITYINDEX_DEFAULT_DATASET"
    static let relativePath = "Data/cities500.json.xz"

    static func path() throws -> String {
        let path = ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 } ?? relativePath
        guard FileManager.default.fileExists(atPath: path) else { throw DatasetNotFound(path: path) }
        return path
    }

    /// `places.json` in the directory of the list at `path`, when there is one.
    static func placesPath(besideListAt path: String) -> String? {
        let places = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("places.json")
        return FileManager.default.fileExists(atPath: places) ? places : nil
    }
}
