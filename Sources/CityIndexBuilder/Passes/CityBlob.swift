// CityBlob.swift: one prepared city as bytes, the unit the build sorts into search order.
import CityIndex
import Foundation

/// A validated city with its folded key and the alternate names it keeps, encoded so that
/// `ExternalSorter` can sort cities into search order (SEARCH.md §3: folded name bytes, then
/// country, then id) without holding them all.
///
/// Layout (little-endian): `u32` key length, the folded key, `u16` country (first letter in
/// the low byte), `u32` id, `u32` line, `u32` column (the record's position: it breaks ties
/// between duplicate ids, so the order is total), `u32` population (`unknownPopulation` when
/// absent), `i32` latitude and `i32` longitude in microdegrees, `u32` region number (0 for none,
/// else 1 + the preparer's number of its (country, region code)), `u16` name length, the name's
/// UTF-8, `u16` alternate count, then each kept alternate as `u16` length, `u8` 1 when it looks
/// machine-made (`AlternateDemotion`, computed once), and UTF-8.
struct CityBlob {
    let bytes: UnsafeRawBufferPointer

    var keyByteCount: Int { Int(bytes.loadUnaligned(as: UInt32.self).littleEndian) }
    var key: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[4 ..< 4 + keyByteCount]) }
    private var fixed: Int { 4 + keyByteCount }
    var countryCode: UInt16 { load(UInt16.self, at: fixed) }
    var id: UInt32 { load(UInt32.self, at: fixed + 2) }
    var line: UInt32 { load(UInt32.self, at: fixed + 6) }
    var column: UInt32 { load(UInt32.self, at: fixed + 10) }
    var population: UInt32 { load(UInt32.self, at: fixed + 14) }
    var latitudeMicrodegrees: Int32 { Int32(bitPattern: load(UInt32.self, at: fixed + 18)) }
    var longitudeMicrodegrees: Int32 { Int32(bitPattern: load(UInt32.self, at: fixed + 22)) }
    /// 0 for no region, else 1 + `CityPreparer.regionNumber`.
    var regionField: UInt32 { load(UInt32.self, at: fixed + 26) }
    private var nameStart: Int { fixed + 32 }
    var name: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[nameStart ..< nameStart + Int(load(UInt16.self, at: fixed + 30))])
    }

    /// The population order weight (0 when unknown).
    var weight: UInt32 { population == FormatConstants.unknownPopulation ? 0 : population }

    /// Calls `body` with each name: slot 0 the primary name, then the kept alternates, and
    /// whether the name looks machine-made (never the primary name).
    func forEachName(_ body: (_ slot: Int, _ text: UnsafeRawBufferPointer, _ looksMachineMade: Bool) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        try body(0, name, false)
        var position = nameStart + name.count
        let alternateCount = Int(load(UInt16.self, at: position))
        position += 2
        for slot in stride(from: 1, through: alternateCount, by: 1) {
            let length = Int(load(UInt16.self, at: position))
            try body(slot, UnsafeRawBufferPointer(rebasing: bytes[position + 3 ..< position + 3 + length]), bytes[position + 2] != 0)
            position += 3 + length
        }
    }

    private func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// Search order (SEARCH.md §3), then position. A strict total order: no two records
    /// share a position.
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let first = CityBlob(bytes: a), second = CityBlob(bytes: b)
        let order = compareKeys(first.key, second.key)
        if order != 0 { return order < 0 }
        let (countryA, countryB) = (first.countryCode, second.countryCode)
        if countryA != countryB { return (countryA & 0xFF, countryA >> 8) < (countryB & 0xFF, countryB >> 8) }
        return (first.id, first.line, first.column) < (second.id, second.line, second.column)
    }

    /// Appends the encoding of `city` with its folded `key` and the alternates `alternates` to `output`.
    static func encode(_ city: ParsedCity, key: [UInt8], regionField: UInt32, alternates: [(text: [UInt8], looksMachineMade: Bool)],
                       into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        func append<T: FixedWidthInteger>(_ value: T) {
            output.appendLittleEndian(value)
        }
        append(UInt32(key.count))
        output.append(contentsOf: key)
        append(city.countryCode)
        append(city.id)
        append(UInt32(clamping: city.position.line))
        append(UInt32(clamping: city.position.column))
        append(city.population ?? FormatConstants.unknownPopulation)
        append(UInt32(bitPattern: city.latitudeMicrodegrees))
        append(UInt32(bitPattern: city.longitudeMicrodegrees))
        append(regionField)
        append(UInt16(city.nameBytes.count))
        output.append(contentsOf: city.nameBytes)
        append(UInt16(alternates.count))
        for alternate in alternates {
            append(UInt16(alternate.text.count))
            output.append(alternate.looksMachineMade ? 1 : 0)
            output.append(contentsOf: alternate.text)
        }
    }
}

/// memcmp order of two byte strings, then shorter first: the sign of the comparison.
@inline(__always)
func compareKeys(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0 {
        let result = memcmp(a.baseAddress!, b.baseAddress!, common)
        if result != 0 { return result < 0 ? -1 : 1 }
    }
    return a.count - b.count
}
