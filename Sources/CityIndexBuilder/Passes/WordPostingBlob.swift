// WordPostingBlob.swift: one word posting as the build's external sort holds it.
import CityIndex

/// One word posting as the build sorts it: `u32` suffix key length, the suffix key, `u32`
/// rank, `u8` demoted, `u16` name slot, `u32` population weight. Sorted by key bytes, then
/// rank, then not demoted first, then slot: a strict total order (a name's suffix keys are
/// distinct, and one (rank, slot) is one name).
enum WordPostingBlob {
    static func encode(suffixKey: ArraySlice<UInt8>, rank: UInt32, slot: UInt16, isDemoted: Bool, weight: UInt32,
                       into record: inout [UInt8]) {
        record.removeAll(keepingCapacity: true)
        record.appendLittleEndian(UInt32(suffixKey.count))
        record.append(contentsOf: suffixKey)
        record.appendLittleEndian(rank)
        record.append(isDemoted ? 1 : 0)
        record.appendLittleEndian(slot)
        record.appendLittleEndian(weight)
    }

    struct Fields {
        let key: UnsafeRawBufferPointer
        let rank: UInt32
        let isDemoted: Bool
        let slot: UInt16
        let weight: UInt32

        init(_ bytes: UnsafeRawBufferPointer) {
            let keyCount = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            key = UnsafeRawBufferPointer(rebasing: bytes[4 ..< 4 + keyCount])
            rank = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 + keyCount, as: UInt32.self))
            isDemoted = bytes[8 + keyCount] != 0
            slot = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 9 + keyCount, as: UInt16.self))
            weight = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 11 + keyCount, as: UInt32.self))
        }

        var order: PopulationOrderKey { PopulationOrderKey(population: weight, rank: Int(rank), slot: Int(slot), isDemoted: isDemoted) }
    }

    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let first = Fields(a), second = Fields(b)
        let order = compareKeys(first.key, second.key)
        if order != 0 { return order < 0 }
        return (first.rank, first.isDemoted ? 1 : 0, first.slot) < (second.rank, second.isDemoted ? 1 : 0, second.slot)
    }
}
