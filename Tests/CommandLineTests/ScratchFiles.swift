// ScratchFiles.swift: the folders and index files the command-line tests run the tools in.
import CityIndexTestSupport
import Foundation

/// A new folder of its own in the temporary directory, named `cityindex-LABEL-UUID` (the
/// test removes it).
func temporaryDirectory(_ label: String = "cli") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cityindex-\(label)-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Data/'s index (`Fixtures.defaultDataset`) written to `directory` as cities.cidx, the name
/// the tools open by default; its path.
func writeDataIndex(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("cities.cidx").path
    try Data(try Fixtures.defaultDataset.get().indexBytes).write(to: URL(fileURLWithPath: path))
    return path
}
