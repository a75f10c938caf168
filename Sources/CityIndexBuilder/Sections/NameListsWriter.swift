// NameListsWriter.swift: lists of short strings (FORMAT.md §7.10), the writing twin of `NameLists`.
import CityIndex

/// Lays out `NameLists`: each list a run of strings (`u8` length, 0 to 255 bytes of UTF-8), the
/// lists' starts, then their text.
///
/// Memory: the lists' bytes (the places tables: thousands of entries, not cities).
struct NameListsWriter {
    private var starts: [UInt32] = [0]
    private var text: [UInt8] = []

    /// Appends a list of `strings`, each at most 255 bytes. Strings past a 4 GiB text are a
    /// format limit (`formatLimitExceeded`).
    mutating func appendList(_ strings: [[UInt8]]) throws(IndexBuildError) {
        for string in strings {
            precondition(string.count <= Int(UInt8.max), "a listed string is at most 255 bytes")
            text.append(UInt8(string.count))
            text.append(contentsOf: string)
        }
        guard text.count <= Int(UInt32.max) else {
            throw .formatLimitExceeded("the places tables would hold more than 4 GiB of names (FORMAT.md §10)")
        }
        starts.append(UInt32(text.count))
    }

    var listCount: Int { starts.count - 1 }

    /// `listCount:u32, textByteCount:u32, starts:u32^(listCount+1)`, padding, the text, padding.
    var bytes: [UInt8] {
        var bytes = ByteBuffer(capacity: 8 + 4 * starts.count + text.count + 16)
        bytes.appendUInt32(UInt32(listCount))
        bytes.appendUInt32(UInt32(text.count))
        for start in starts { bytes.appendUInt32(start) }
        bytes.pad(toMultipleOf: 8)
        bytes.append(text)
        bytes.pad(toMultipleOf: 8)
        return bytes.bytes
    }
}
