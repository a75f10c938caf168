// CityIndex+URL.swift: opening an index by file URL (Bundle.module, app containers).
import CityIndex
import Foundation

extension CityIndex {
    /// Maps the index file at the file URL `url` (for example
    /// `Bundle.main.url(forResource: "cities", withExtension: "cidx")`); see `init(path:)`.
    /// - Throws: `IndexFileError`; `.cannotOpenFile` with `EINVAL` for a URL that is not a file URL.
    public init(contentsOf url: URL) throws(IndexFileError) {
        guard url.isFileURL else { throw .cannotOpenFile(path: url.absoluteString, errno: EINVAL) }
        try self.init(path: url.path)
    }
}
