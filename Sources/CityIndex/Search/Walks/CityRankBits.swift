// CityRankBits.swift: city ranks marked as bits, to count the distinct cities of overlapping matches.

extension UnsafeMutableBufferPointer where Element == UInt64 {
    /// Sets the bit of city `rank` (bit `rank % 64` of word `rank / 64`), which must lie in the
    /// buffer, and returns whether it was clear: whether the city is new to the set. O(1).
    @inline(__always)
    func insertCity(rank: Int) -> Bool {
        let (word, bit) = (rank &>> 6, UInt64(1) &<< UInt64(rank & 63))
        let marks = self[word]
        self[word] = marks | bit
        return marks & bit == 0
    }
}
