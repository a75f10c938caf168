// CityCollection.swift: the parsed cities, held compactly until they are laid out.
import CityIndex

/// Validated cities in input order: fixed-size records plus two byte arenas (names and
/// folded keys), about 40 bytes per city beyond the text.
struct CityCollection {
    struct Record {
        var id: UInt32
        var countryCode: UInt16
        var nameByteCount: UInt16
        var latitudeMicrodegrees: Int32
        var longitudeMicrodegrees: Int32
        var population: UInt32
        var nameStart: UInt32
        var keyStart: UInt32
        var keyByteCount: UInt32
        var line: UInt32
        var column: UInt32
    }

    private(set) var records: [Record] = []
    private(set) var nameArena: [UInt8] = []
    private(set) var keyArena: [UInt8] = []

    var count: Int { records.count }

    mutating func append(_ city: ParsedCity, folder: Folder) {
        let nameStart = nameArena.count
        nameArena.append(contentsOf: city.nameBytes)
        let keyStart = keyArena.count
        folder.appendFolded(String(decoding: city.nameBytes, as: UTF8.self).unicodeScalars, to: &keyArena)
        records.append(Record(
            id: city.id, countryCode: city.countryCode, nameByteCount: UInt16(city.nameBytes.count),
            latitudeMicrodegrees: city.latitudeMicrodegrees, longitudeMicrodegrees: city.longitudeMicrodegrees,
            population: city.population ?? IndexLayout.unknownPopulation,
            nameStart: UInt32(nameStart), keyStart: UInt32(keyStart), keyByteCount: UInt32(keyArena.count - keyStart),
            line: UInt32(clamping: city.position.line), column: UInt32(clamping: city.position.column)))
    }

    func name(of record: Record) -> ArraySlice<UInt8> {
        nameArena[Int(record.nameStart) ..< Int(record.nameStart) + Int(record.nameByteCount)]
    }

    func key(of record: Record) -> ArraySlice<UInt8> {
        keyArena[Int(record.keyStart) ..< Int(record.keyStart) + Int(record.keyByteCount)]
    }
}
