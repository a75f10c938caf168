// GzipSource.swift: gzip decompression, streaming, members in turn (RFC 1952).
import CityIndex

/// Decompresses a gzip stream chunk by chunk: parses each member's header, inflates its raw
/// DEFLATE data (`RawInflater`), and checks its CRC-32 and length trailer. Concatenated
/// members are read in turn; anything after a member that is not another member is an error.
///
/// Memory: one 64 KiB input buffer plus the inflater's 32 KiB window, whatever the size.
final class GzipSource: ByteSource {
    private enum State {
        case header
        case body
        case finished
    }

    private let source: ByteSource
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    /// The unread input is `input[inputStart ..< inputEnd]`.
    private var inputStart = 0, inputEnd = 0
    private var sourceEnded = false
    private var state = State.header
    private var memberCount = 0
    private let inflater: RawInflater
    /// CRC-32 and length (mod 2³²) of the current member's output so far.
    private var crc: UInt32 = 0
    private var memberByteCount: UInt32 = 0

    init(_ source: ByteSource) throws(InputError) {
        self.source = source
        do {
            inflater = try RawInflater()
        } catch {
            input.deallocate()
            throw error
        }
    }

    deinit { input.deallocate() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            switch state {
            case .finished:
                return 0
            case .header:
                guard try hasInput() else {
                    guard memberCount > 0 else { throw .truncatedCompressedData(format: .gzip) }
                    state = .finished
                    return 0
                }
                try readHeader()
                (crc, memberByteCount) = (0, 0)
                state = .body
            case .body:
                if inputStart == inputEnd && !sourceEnded { try refill() }
                let available = UnsafeRawBufferPointer(rebasing: input[inputStart ..< inputEnd])
                let step = try inflater.inflate(available, into: buffer, inputEnded: sourceEnded)
                inputStart += step.consumed
                let produced = UnsafeRawBufferPointer(rebasing: buffer[..<step.produced])
                crc = CRC32.update(crc, with: produced)
                memberByteCount &+= UInt32(truncatingIfNeeded: step.produced)
                if step.streamEnded {
                    try readTrailer()
                    try inflater.reset()
                    memberCount += 1
                    state = .header
                }
                if step.produced > 0 { return step.produced }
                if !step.streamEnded && step.consumed == 0 {
                    guard !sourceEnded else { throw .truncatedCompressedData(format: .gzip) }
                    guard inputEnd - inputStart < input.count else { throw corrupt("the DEFLATE decoder made no progress") }
                    try refill()
                }
            }
        }
    }

    /// Whether unread input remains, reading more when the buffer is empty.
    private func hasInput() throws(InputError) -> Bool {
        if inputStart == inputEnd && !sourceEnded { try refill() }
        return inputStart < inputEnd
    }

    /// Moves unread bytes to the front and reads more after them.
    private func refill() throws(InputError) {
        let unread = inputEnd - inputStart
        if unread > 0 && inputStart > 0 { input.baseAddress!.copyMemory(from: input.baseAddress! + inputStart, byteCount: unread) }
        (inputStart, inputEnd) = (0, unread)
        guard inputEnd < input.count else { return }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: input[inputEnd...]))
        inputEnd += count
        sourceEnded = count == 0
    }

    private func nextByte() throws(InputError) -> UInt8 {
        guard try hasInput() else { throw .truncatedCompressedData(format: .gzip) }
        defer { inputStart += 1 }
        return input[inputStart]
    }

    private func nextUInt16() throws(InputError) -> UInt16 {
        UInt16(try nextByte()) | UInt16(try nextByte()) << 8
    }

    private func nextUInt32() throws(InputError) -> UInt32 {
        UInt32(try nextUInt16()) | UInt32(try nextUInt16()) << 16
    }

    private func corrupt(_ detail: String) -> InputError { .corruptCompressedData(format: .gzip, detail: detail) }

    private func readHeader() throws(InputError) {
        guard try nextByte() == GzipFraming.magic[0], try nextByte() == GzipFraming.magic[1] else {
            throw corrupt(memberCount == 0 ? "not a gzip stream" : "unexpected bytes after gzip member \(memberCount)")
        }
        let method = try nextByte()
        guard method == GzipFraming.deflateMethod else { throw corrupt("unknown compression method \(method)") }
        let flags = try nextByte()
        guard flags & GzipFraming.reservedFlags == 0 else { throw corrupt("reserved header flags are set") }
        for _ in 0 ..< 6 { _ = try nextByte() }   // modification time, extra flags, operating system
        if flags & GzipFraming.extraFlag != 0 {
            for _ in 0 ..< Int(try nextUInt16()) { _ = try nextByte() }
        }
        if flags & GzipFraming.nameFlag != 0 { while try nextByte() != 0 {} }
        if flags & GzipFraming.commentFlag != 0 { while try nextByte() != 0 {} }
        if flags & GzipFraming.headerCRCFlag != 0 { _ = try nextUInt16() }
    }

    private func readTrailer() throws(InputError) {
        let storedCRC = try nextUInt32()
        let storedByteCount = try nextUInt32()
        guard storedCRC == crc else { throw corrupt("CRC-32 mismatch in member \(memberCount + 1) (stored \(storedCRC), computed \(crc))") }
        guard storedByteCount == memberByteCount else { throw corrupt("length mismatch in member \(memberCount + 1)") }
    }
}
