// FoldTableGenerator.swift: writes the FOLD section (FORMAT.md §5).
import CityIndex

/// Generates the fold table: every assigned scalar whose fold differs from itself, except
/// Hangul syllables (folded arithmetically by the reader, FORMAT.md §5.2).
///
/// Deterministic for a given Unicode version (the platform's); the table travels inside
/// each index, so a reader always folds queries exactly as its builder folded names.
enum FoldTableGenerator {
    /// Ranges with no case, no decomposition and no marks: skipped for speed, fold to themselves.
    private static let identityRanges: [ClosedRange<UInt32>] = [
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xE000...0xF8FF, 0x20000...0x2F7FF, 0x30000...0x3FFFF, 0xF0000...0x10FFFF,
    ]

    /// The bytes of the `FOLD` section: every scalar of `scalars` folded once.
    static func sectionBytes(limitedTo scalars: ClosedRange<UInt32> = 0...0x10FFFF) -> [UInt8] {
        var entries: [(scalar: UInt32, output: [UInt8])] = []
        for value in scalars {
            guard let scalar = Unicode.Scalar(value),
                  !FormatConstants.hangulSyllables.contains(value),
                  scalar.properties.generalCategory != .unassigned,
                  !identityRanges.contains(where: { $0.contains(value) }) else { continue }
            let folded = Array(ScalarFolding.fold(scalar).utf8)
            if folded != Array(String(scalar).utf8) { entries.append((value, folded)) }
        }
        var section = ByteBuffer()
        section.appendUInt32(UInt32(entries.count))
        let outputs = entries.reduce(into: [UInt8]()) { $0 += $1.output }
        section.appendUInt32(UInt32(outputs.count))
        var outputOffset = 0
        for entry in entries {
            section.appendUInt32(entry.scalar)
            precondition(entry.output.count < 256 && outputOffset < 1 << FormatConstants.foldOutputOffsetBits)
            section.appendUInt32(UInt32(outputOffset) | UInt32(entry.output.count) << FormatConstants.foldOutputOffsetBits)
            outputOffset += entry.output.count
        }
        section.append(outputs)
        return section.bytes
    }
}
