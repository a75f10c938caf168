// NameBlockChooser.swift: how many ranks share one start in NAME (FORMAT.md §7.1).
import CityIndex

/// Chooses the size of `CITY`'s name blocks from the primary names' offsets in rank order.
///
/// A block of `2^shift` consecutive ranks stores one `u32` start (the smallest of its names'
/// offsets) and each record the distance of its name from it, in the fewest bits that hold
/// the largest distance of any block. Names are stored in rank order, so a block's names lie
/// close together and small blocks need few bits per record, at 32 bits per block. The
/// chooser keeps, for every candidate shift, the largest span (largest minus smallest
/// offset) of any block, and picks the shift with the fewest bits in all.
///
/// Memory: O(1). Time: O(candidates) per offset.
struct NameBlockChooser {
    /// The shifts tried: blocks of 4 to 1,024 ranks.
    static let candidateShifts = 2 ... 10

    private var count = 0
    private var blockSmallest = [Int](repeating: .max, count: candidateShifts.count)
    private var blockLargest = [Int](repeating: 0, count: candidateShifts.count)
    private var largestSpan = [Int](repeating: 0, count: candidateShifts.count)

    /// Adds the name offset of the next rank.
    mutating func add(offset: Int) {
        for (index, shift) in Self.candidateShifts.enumerated() {
            if count & ((1 << shift) - 1) == 0 { closeBlock(index) }
            blockSmallest[index] = min(blockSmallest[index], offset)
            blockLargest[index] = max(blockLargest[index], offset)
        }
        count += 1
    }

    private mutating func closeBlock(_ index: Int) {
        if blockSmallest[index] != .max { largestSpan[index] = max(largestSpan[index], blockLargest[index] - blockSmallest[index]) }
        blockSmallest[index] = .max
        blockLargest[index] = 0
    }

    /// The shift with the fewest bits of block starts and distances (the smaller on ties),
    /// and the distances' width.
    mutating func choice() -> (shift: Int, deltaWidth: Int) {
        for index in 0 ..< Self.candidateShifts.count { closeBlock(index) }
        var best = (bits: Int.max, shift: Self.candidateShifts.lowerBound, deltaWidth: 0)
        for (index, shift) in Self.candidateShifts.enumerated() {
            let deltaWidth = bitWidth(holding: UInt64(largestSpan[index]))
            let bits = ((count + (1 << shift) - 1) >> shift) * 32 + count * deltaWidth
            if bits < best.bits { best = (bits, shift, deltaWidth) }
        }
        return (best.shift, best.deltaWidth)
    }
}
