// IndexContents+RecordInvariants.swift: CITY, NAME and IDIX (FORMAT.md §7.1–7.3, I4).

extension IndexContents {
    /// Every record's name lies in `NAME` and is UTF-8, its country code is two ASCII capitals
    /// and its coordinates are in range. O(cities + name bytes).
    func verifyRecords() throws(IndexFileError) {
        let isCapital: (UInt16) -> Bool = { (0x41...0x5A).contains($0) }
        for rank in 0..<cityCount {
            let location = records.nameLocation(ofRank: rank)
            guard location.byteCount > 0, names.contains(location) else {
                throw .invariantViolated(.nameOutOfBounds(rank: rank))
            }
            guard UTF8Validation.isValid(names.name(at: location).buffer) else { throw .invariantViolated(.nameNotUTF8(rank: rank)) }
            let country = records.countryCode(ofRank: rank)
            guard isCapital(country & 0xFF), isCapital(country >> 8) else {
                throw .invariantViolated(.invalidCountryCode(rank: rank))
            }
            guard (-90_000_000...90_000_000).contains(records.latitudeMicrodegrees(ofRank: rank)),
                  (-180_000_000...180_000_000).contains(records.longitudeMicrodegrees(ofRank: rank)) else {
                throw .invariantViolated(.coordinateOutOfRange(rank: rank))
            }
        }
    }

    /// `CITY`'s id exceptions (FORMAT.md §7.1): ranks strictly increasing and below
    /// `cityCount`, each naming a record that holds the escape value, each id too wide for the
    /// record, and as many exceptions as escaped records (so every escaped record has one).
    /// O(cities + exceptions).
    func verifyIDExceptions() throws(IndexFileError) {
        let count = records.idExceptionCount
        let escape = records.idEscape
        var previousRank = -1
        for index in 0 ..< count {
            let (rank, id) = records.idException(at: index)
            guard rank > previousRank, rank < cityCount else { throw .invariantViolated(.idExceptionWrong(rank: rank)) }
            guard records.hasExceptionalID(rank: rank), UInt64(id) >= escape else {
                throw .invariantViolated(.idExceptionWrong(rank: rank))
            }
            previousRank = rank
        }
        guard count > 0 else { return }
        var escaped = 0
        for rank in 0 ..< cityCount where records.hasExceptionalID(rank: rank) {
            escaped += 1
            guard escaped <= count else { throw .invariantViolated(.idExceptionWrong(rank: rank)) }
        }
        guard escaped == count else { throw .invariantViolated(.idExceptionWrong(rank: cityCount)) }
    }

    /// I4: `IDIX` lists every rank once, by strictly increasing id. O(cities), one bit per city.
    func verifyIDIndex() throws(IndexFileError) {
        var seen = [UInt64](repeating: 0, count: (cityCount + 63) / 64)
        var previousID: UInt32?
        for position in 0..<cityCount {
            guard let rank = idIndex.rank(at: position), seen[rank / 64] & (1 << UInt64(rank % 64)) == 0 else {
                throw .invariantViolated(.idIndexRankOutOfBounds(position: position))
            }
            seen[rank / 64] |= 1 << UInt64(rank % 64)
            let id = records.id(ofRank: rank)
            if let previousID, id <= previousID { throw .invariantViolated(.idIndexNotSorted(position: position)) }
            previousID = id
        }
    }
}
