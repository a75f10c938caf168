// IDWidthChooser.swift: how many bits a CITY record gives its id (FORMAT.md §7.1).
import CityIndex

/// Chooses the width of `CITY`'s id field from the ids' sizes.
///
/// A record's id takes `idWidth` bits; when a few ids are far larger than the rest (the 209k
/// list: 3 of 209,557 need more than 23 bits, the largest 27), they go to an exception table
/// of 64 bits each, (rank, id), and their records hold the escape value (all ones). The
/// chooser counts the ids by the width of `id + 1` (an id of all ones at width *w* must be an
/// exception too) and takes the width with the fewest bits in all; on ties, no exceptions.
///
/// Memory: O(1). Time: O(1) per id, O(33²) to choose.
struct IDWidthChooser {
    /// `countsByWidth[k]`: the ids whose `id + 1` is `k` bits wide (1 … 33).
    private var countsByWidth = [Int](repeating: 0, count: 34)
    private var count = 0
    private var largest: UInt64 = 0

    mutating func add(id: UInt32) {
        countsByWidth[bitWidth(holding: UInt64(id) + 1)] += 1
        largest = max(largest, UInt64(id))
        count += 1
    }

    /// The width, and how many ids do not fit it (`id ≥ 2^width − 1`) and are exceptions (0:
    /// none, and all ones is an ordinary id).
    func choice() -> (width: Int, exceptionCount: Int) {
        let plainWidth = bitWidth(holding: largest)
        var best = (bits: count * plainWidth, width: plainWidth, exceptionCount: 0)
        for width in 0 ..< plainWidth {
            let exceptions = countsByWidth[(width + 1)...].reduce(0, +)
            let bits = count * width + 64 * exceptions
            if bits < best.bits { best = (bits, width, exceptions) }
        }
        return (best.width, best.exceptionCount)
    }
}
