// IndexFileDetection.swift: build-index given an index instead of a city list.
import CityIndexArtifacts

/// Recognises an index file (the "CIDX" magic of FORMAT.md §2) given as build-index's input.
enum IndexFileDetection {
    /// Whether the regular file at `path` starts with "CIDX" (standard input is never checked).
    static func isIndexFile(_ path: String) -> Bool {
        path != "-" && FilePrefix.read(path: path, count: 4) == Array("CIDX".utf8)
    }
}

/// build-index was given an index file as its input.
struct InputIsAnIndex: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "'\(path)' is a CityIndex file (it starts with \"CIDX\"), not a JSON city list: build-index reads the list an index is built from; to search this file use city-search --index \(path)"
    }
}
