// IndexFileDetection.swift: build-index given an index instead of a city list.
import Foundation

/// Recognises an index file (the "CIDX" magic of FORMAT.md §2) given as build-index's input.
enum IndexFileDetection {
    /// Whether the regular file at `path` starts with "CIDX" (standard input is never checked).
    static func isIndexFile(_ path: String) -> Bool {
        guard path != "-" else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        var magic = [UInt8](repeating: 0, count: 4)
        let count = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4) }
        return count == 4 && magic == Array("CIDX".utf8)
    }
}

/// build-index was given an index file as its input.
struct InputIsAnIndex: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "'\(path)' is a CityIndex file (it starts with \"CIDX\"), not a JSON city list: build-index reads the list an index is built from; to search this file use city-search --index \(path)"
    }
}
