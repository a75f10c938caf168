// SpillingByteBuffer.swift: a ByteBuffer whose bytes go to a scratch file as they accumulate.

/// Appends like `ByteBuffer`, but moves its bytes to a `ScratchFile` every 1 MiB, so a
/// section of any size is built in constant memory. `count` counts from `startCount`
/// (bytes that precede the spilled ones in the section, written separately, such as a
/// header patched at the end).
struct SpillingByteBuffer {
    private var buffer = ByteBuffer(capacity: 1 << 20)
    let file: ScratchFile
    private var spilledCount = 0
    private let startCount: Int

    init(file: ScratchFile, startCount: Int = 0) {
        self.file = file
        self.startCount = startCount
    }

    var count: Int { startCount + spilledCount + buffer.count }

    mutating func appendUInt8(_ value: UInt8) throws(IndexBuildError) {
        buffer.appendUInt8(value)
        try spillIfFull()
    }

    mutating func appendVarint(_ value: UInt32) throws(IndexBuildError) {
        buffer.appendVarint(value)
        try spillIfFull()
    }

    mutating func appendLittleEndian(_ value: UInt64, byteCount: Int) throws(IndexBuildError) {
        buffer.appendLittleEndian(value, byteCount: byteCount)
        try spillIfFull()
    }

    mutating func append(_ bytes: some Sequence<UInt8>) throws(IndexBuildError) {
        buffer.append(bytes)
        try spillIfFull()
    }

    private mutating func spillIfFull() throws(IndexBuildError) {
        if buffer.count >= 1 << 20 { try spill() }
    }

    private mutating func spill() throws(IndexBuildError) {
        try file.append(buffer.bytes)
        spilledCount += buffer.count
        buffer = ByteBuffer(capacity: 1 << 20)
    }

    /// Writes the rest; the file then holds every byte appended.
    mutating func finish() throws(IndexBuildError) {
        try spill()
        try file.finishWriting()
    }
}
