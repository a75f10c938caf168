// LengthPrefixedRecords.swift: records as (u32 length, bytes), back to back.

/// The layout of a sort arena, a sorted run and the batches threads hand each other: each
/// record as its `u32` little-endian length, then its bytes. One encoder and one reader, so
/// that every place agrees on it.
extension Array where Element == UInt8 {
    /// Appends `record` with its length in front.
    @inline(__always)
    mutating func appendLengthPrefixed(_ record: UnsafeRawBufferPointer) {
        appendLittleEndian(UInt32(record.count))
        append(bytes: record)
    }
}

extension UnsafeRawBufferPointer {
    /// The record whose length starts at `offset` (its bytes, without the length). The next
    /// record starts at `offset + 4 + count`. Unchecked beyond the buffer's bounds checks: for
    /// bytes this build wrote.
    @inline(__always)
    func lengthPrefixedRecord(at offset: Int) -> UnsafeRawBufferPointer {
        let length = Int(UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        return UnsafeRawBufferPointer(rebasing: self[offset + 4 ..< offset + 4 + length])
    }
}
