// TemporaryFile.swift: a new, uniquely named file, the one place that calls mkstemp.
import Foundation

/// Creates a new empty file whose path starts with `pathPrefix` and ends with six random
/// characters (`mkstemp`), open for reading and writing. Callers decide what it is for: keep
/// it and rename it into place (`AtomicFileWriter`), unlink it at once as scratch space, or
/// remove it when done.
package enum TemporaryFile {
    /// Why a temporary file could not be created: the `errno` of `mkstemp`.
    package struct Failure: Error {
        package let errno: Int32
        package var reason: String { String(cString: strerror(errno)) }
    }

    package static func create(pathPrefix: String) throws(Failure) -> (descriptor: Int32, path: String) {
        var template = Array((pathPrefix + "XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        return (descriptor, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
