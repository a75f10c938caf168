// PackedValuesFile.swift: fixed-width packing of values a build produces before it knows their width.
import CityIndex

/// Values in production order, kept 8 bytes each in a scratch file, with their maximum; once
/// all are in, `packedArray` writes the `PackedArray` section of them (FORMAT.md §1) in the
/// fewest bits that hold the largest, as a header and a scratch file of packed words.
/// Constant memory: the packing streams.
struct PackedValuesFile {
    private var output: SpillingByteBuffer
    private(set) var count = 0
    private(set) var maximum: UInt64 = 0

    init(directory: String) throws(IndexBuildError) {
        output = SpillingByteBuffer(file: try ScratchFile(directory: directory))
    }

    mutating func append(_ value: UInt64) throws(IndexBuildError) {
        try output.appendLittleEndian(value, byteCount: 8)
        count += 1
        maximum = max(maximum, value)
    }

    /// Calls `body` with each value in order. Call once, after the last append.
    mutating func forEachValue(_ body: (UInt64) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        try output.finish()
        var reader = ScratchFileReader(output.file, bufferByteCount: 1 << 20)
        defer { reader.deallocate() }
        for _ in 0 ..< count { try body(try reader.next(8).loadUnaligned(as: UInt64.self).littleEndian) }
    }

    /// The values as a `PackedArray` section in `width + secondWidth` bits each (by default
    /// the fewest that hold the maximum).
    mutating func packedArray(width: Int? = nil, secondWidth: Int = 0, directory: String) throws(IndexBuildError) -> [SectionPart] {
        let width = width ?? bitWidth(holding: maximum)
        var bits = try PackedBitsFileWriter(directory: directory)
        try forEachValue { value throws(IndexBuildError) in try bits.append(value, width: width + secondWidth) }
        return [.bytes(PackedBitsFileWriter.arrayHeader(width: width, secondWidth: secondWidth, count: count)), .file(try bits.finish())]
    }
}

/// `PackedBitsWriter` into a scratch file: 64-bit little-endian words, written as they fill.
struct PackedBitsFileWriter {
    private var output: SpillingByteBuffer
    private var word: UInt64 = 0
    private(set) var bitCount = 0

    init(directory: String) throws(IndexBuildError) {
        output = SpillingByteBuffer(file: try ScratchFile(directory: directory))
    }

    /// Appends the low `width` bits of `value` (0…64), which must hold nothing above them.
    mutating func append(_ value: UInt64, width: Int) throws(IndexBuildError) {
        precondition(width == 64 || value >> UInt64(width) == 0, "value does not fit its width")
        guard width > 0 else { return }
        let shift = bitCount & 63
        word |= value << UInt64(shift)
        bitCount += width
        if shift + width >= 64 {
            try output.appendLittleEndian(word, byteCount: 8)
            word = shift + width > 64 ? value >> UInt64(64 - shift) : 0
        }
    }

    /// The words (`PackedBits.byteCount(bitCount:)` bytes) in a file.
    mutating func finish() throws(IndexBuildError) -> ScratchFile {
        if bitCount & 63 != 0 { try output.appendLittleEndian(word, byteCount: 8) }
        try output.finish()
        return output.file
    }

    /// The 8-byte header of a `PackedArray` section.
    static func arrayHeader(width: Int, secondWidth: Int, count: Int) -> [UInt8] {
        var header = ByteBuffer(capacity: FormatConstants.packedHeaderByteCount)
        header.appendUInt8(UInt8(width))
        header.appendUInt8(UInt8(secondWidth))
        header.appendUInt16(0)
        header.appendUInt32(UInt32(truncatingIfNeeded: count))
        return header.bytes
    }
}

/// A piece of a section's bytes: in memory, or a whole scratch file.
enum SectionPart {
    case bytes([UInt8])
    case file(ScratchFile)

    var byteCount: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .file(let file): return file.byteCount
        }
    }
}
