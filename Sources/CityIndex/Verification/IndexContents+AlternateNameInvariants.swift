// IndexContents+AlternateNameInvariants.swift: ALTN (FORMAT.md §7.5).

extension IndexContents {
    /// `ALTN`: offsets start at 0, never decrease and end at the text's size; each city's
    /// run is whole (length, name) entries of non-empty UTF-8. O(cities + text bytes).
    func verifyAlternateNames() throws(IndexFileError) {
        /// Whether a coded name decodes to non-empty UTF-8.
        func isValidCodedName(_ coded: ByteView) -> Bool {
            withUnsafeTemporaryAllocation(byteCount: NameSymbols.decodingCapacity(ofCodedByteCount: coded.count), alignment: 8) { buffer in
                nameSymbols.decode(coded.buffer, into: buffer).map { length in
                    length > 0 && UTF8Validation.isValid(UnsafeRawBufferPointer(rebasing: buffer[0 ..< length]))
                } ?? false
            }
        }
        guard alternates.textOffset(ofRank: 0) == 0, alternates.textOffset(ofRank: cityCount) == alternates.text.count else {
            throw .invariantViolated(.alternateNameOutOfBounds(rank: 0))
        }
        for rank in 0 ..< cityCount {
            guard alternates.textOffset(ofRank: rank) <= alternates.textOffset(ofRank: rank + 1) else {
                throw .invariantViolated(.alternateNameOutOfBounds(rank: rank))
            }
            let block = alternates.block(ofRank: rank)
            var offset = 0
            while offset < block.count {
                guard let (length, next) = block.varint(at: offset), length > 0,
                      let name = block.slice(offset: next, length: Int(length)), isValidCodedName(name) else {
                    throw .invariantViolated(.alternateNameOutOfBounds(rank: rank))
                }
                offset = next + Int(length)
            }
        }
    }
}
