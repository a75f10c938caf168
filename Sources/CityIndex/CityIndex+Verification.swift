// CityIndex+Verification.swift: verify(), the whole-file check.

extension CityIndex {
    /// Checks the whole file: the checksum over every byte (FORMAT.md §8), then the record
    /// and id-index invariants of FORMAT.md §9. Run it once after downloading or caching an
    /// index; searching a file that passes cannot meet damage.
    ///
    /// - Complexity: O(file size). Allocates one bit per city.
    public func verify() throws(IndexFileError) {
        let computed = CRC32.indexChecksum(of: contents.storage.bytes.buffer)
        guard computed == contents.storedChecksum else {
            throw .checksumMismatch(stored: contents.storedChecksum, computed: computed)
        }
        try contents.foldTable.validateEntries()
        try verifyRecords()
        try verifyIDIndex()
    }

    private func verifyRecords() throws(IndexFileError) {
        for rank in 0..<contents.cityCount {
            let city = City(contents: contents, rank: rank)
            let base = rank * IndexLayout.cityRecordByteCount
            let nameOffset = Int(contents.records.uint32(at: base + IndexLayout.recordNameOffsetOffset)!)
            let nameByteCount = Int(contents.records.uint16(at: base + IndexLayout.recordNameByteCountOffset)!)
            guard nameByteCount > 0, let name = contents.names.slice(offset: nameOffset, length: nameByteCount) else {
                throw .invariantViolated(.nameOutOfBounds(rank: rank))
            }
            guard UTF8Validation.isValid(name.buffer) else { throw .invariantViolated(.nameNotUTF8(rank: rank)) }
            let country = contents.records.uint16(at: base + IndexLayout.recordCountryOffset)!
            let isCapital: (UInt16) -> Bool = { (0x41...0x5A).contains($0) }
            guard isCapital(country & 0xFF), isCapital(country >> 8) else {
                throw .invariantViolated(.invalidCountryCode(rank: rank))
            }
            guard (-90_000_000...90_000_000).contains(city.latitudeMicrodegrees),
                  (-180_000_000...180_000_000).contains(city.longitudeMicrodegrees) else {
                throw .invariantViolated(.coordinateOutOfRange(rank: rank))
            }
        }
    }

    private func verifyIDIndex() throws(IndexFileError) {
        var seen = [UInt64](repeating: 0, count: (contents.cityCount + 63) / 64)
        var previousID: UInt32?
        for position in 0..<contents.cityCount {
            let rank = Int(contents.idIndex.uint32(at: position * 4)!)
            guard rank < contents.cityCount, seen[rank / 64] & (1 << UInt64(rank % 64)) == 0 else {
                throw .invariantViolated(.idIndexRankOutOfBounds(position: position))
            }
            seen[rank / 64] |= 1 << UInt64(rank % 64)
            let id = contents.records.uint32(at: rank * IndexLayout.cityRecordByteCount)!
            if let previousID, id <= previousID { throw .invariantViolated(.idIndexNotSorted(position: position)) }
            previousID = id
        }
    }
}
