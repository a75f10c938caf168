// ByteView.swift: bounds-checked little-endian reads over a span of the index.
import CCacheHints

/// A span of index bytes: a base address and a count. Every read checks its bounds and
/// either returns `nil` or throws; none traps or reads outside the span.
///
/// A `ByteView` does not own its bytes: the `IndexFileBytes` it came from must outlive it
/// (every public type that holds one also holds its storage).
struct ByteView: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int

    /// The sub-span `offset ..< offset + length`, or `nil` when it leaves this span.
    @inline(__always)
    func slice(offset: Int, length: Int) -> ByteView? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        return ByteView(base: base + offset, count: length)
    }

    @inline(__always)
    func uint8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    @inline(__always)
    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= count - 2 else { return nil }
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always)
    func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    func uint64(at offset: Int) -> UInt64? {
        guard offset >= 0, offset <= count - 8 else { return nil }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Reads an unsigned little-endian integer of `width` bytes (1...4).
    @inline(__always)
    func unsigned(at offset: Int, width: Int) -> UInt32? {
        guard width >= 1, width <= 4, offset >= 0, offset <= count - width else { return nil }
        var value: UInt32 = 0
        for index in 0..<width {
            value |= UInt32(base.load(fromByteOffset: offset + index, as: UInt8.self)) << (8 * UInt32(index))
        }
        return value
    }

    /// Reads an unsigned LEB128 varint of at most 5 bytes that fits in 32 bits.
    /// Returns the value and the offset after it, or `nil` when it is truncated, overlong
    /// or too large.
    @inline(__always)
    func varint(at offset: Int) -> (value: UInt32, next: Int)? {
        // Most varints of a node are one byte: read it without the loop's per-byte checks.
        if offset >= 0 && offset < count {
            let first = base.load(fromByteOffset: offset, as: UInt8.self)
            if first < 0x80 { return (UInt32(first), offset + 1) }
        }
        var value: UInt32 = 0
        var position = offset
        for shift in stride(from: UInt32(0), through: 28, by: 7) {
            guard let byte = uint8(at: position) else { return nil }
            position += 1
            let payload = UInt32(byte & 0x7F)
            if shift == 28 && payload > 0x0F { return nil }
            value |= payload << shift
            if byte & 0x80 == 0 { return (value, position) }
        }
        return nil
    }

    /// Reads at an offset the caller has proven to lie inside the span: a section type
    /// validated its size once (`init(validating:)`) and reads only inside that size.
    /// Checked in debug builds only.
    @inline(__always)
    func uint16(uncheckedAt offset: Int) -> UInt16 {
        assert(offset >= 0 && offset <= count - 2, "read outside a validated section")
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// `uint16(uncheckedAt:)` for four bytes.
    @inline(__always)
    func uint32(uncheckedAt offset: Int) -> UInt32 {
        assert(offset >= 0 && offset <= count - 4, "read outside a validated section")
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// `uint16(uncheckedAt:)` for eight bytes.
    @inline(__always)
    func uint64(uncheckedAt offset: Int) -> UInt64 {
        assert(offset >= 0 && offset <= count - 8, "read outside a validated section")
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// `unsigned(at:width:)` at an offset the caller has proven inside the span.
    @inline(__always)
    func unsigned(uncheckedAt offset: Int, width: Int) -> UInt32 {
        assert(width >= 1 && width <= 4 && offset >= 0 && offset <= count - width, "read outside a validated section")
        var value: UInt32 = 0
        for index in 0..<width {
            value |= UInt32(base.load(fromByteOffset: offset + index, as: UInt8.self)) << (8 * UInt32(index))
        }
        return value
    }

    /// `uint16(uncheckedAt:)` for one byte.
    @inline(__always)
    func uint8(uncheckedAt offset: Int) -> UInt8 {
        assert(offset >= 0 && offset < count, "read outside a validated section")
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// The sub-span `offset ..< offset + length`, which the caller has proven inside this one.
    @inline(__always)
    func slice(uncheckedOffset offset: Int, length: Int) -> ByteView {
        assert(offset >= 0 && length >= 0 && offset <= count - length, "slice outside a validated section")
        return ByteView(base: base + offset, count: length)
    }

    /// Starts loading the cache line of byte `offset` (a hint: nothing when it lies outside
    /// the span, and never a fault). O(1).
    @inline(__always)
    func prefetch(at offset: Int) {
        guard offset >= 0 && offset < count else { return }
        cityindex_prefetch(base + offset)
    }

    /// An empty span at the start of this one (what a damaged reference reads as).
    var empty: ByteView { ByteView(base: base, count: 0) }

    /// Throws `sectionSizeMismatch` unless the span holds exactly `expectedByteCount` bytes.
    func requireByteCount(_ expectedByteCount: UInt64, of section: SectionKind) throws(IndexFileError) {
        guard UInt64(count) == expectedByteCount else {
            throw .sectionSizeMismatch(section: section, byteCount: UInt64(count), expectedByteCount: expectedByteCount)
        }
    }

    /// The bytes as an unsafe buffer, for comparisons and decoding.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
