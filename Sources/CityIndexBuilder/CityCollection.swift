// CityCollection.swift: the parsed cities, held compactly until they are laid out.
import CityIndex

/// Validated cities in input order: fixed-size records plus byte arenas (names, folded
/// keys, word keys), about 60 bytes per city and 24 per alternate name beyond the text.
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
        /// The city's names in `names`: the primary name at `firstName`, then its alternates.
        var firstName: UInt32
        var alternateCount: UInt16
        var line: UInt32
        var column: UInt32
    }

    /// One name of a city (primary or alternate) and its word key (WORDS.md §1).
    struct Name {
        var nameStart: UInt32
        var nameByteCount: UInt16
        var wordCount: UInt16
        var wordKeyStart: UInt32
        var wordKeyByteCount: UInt32
        /// The words' start offsets in the word key: `wordStarts[firstWordStart ..< + wordCount]`.
        var firstWordStart: UInt32
    }

    private(set) var records: [Record] = []
    private(set) var nameArena: [UInt8] = []
    private(set) var keyArena: [UInt8] = []
    private(set) var names: [Name] = []
    private(set) var wordKeyArena: [UInt8] = []
    private(set) var wordStarts: [UInt32] = []

    /// The text of every stored alternate name, in input order.
    var alternateNameTexts: [ArraySlice<UInt8>] {
        records.flatMap { record in
            (0 ..< Int(record.alternateCount)).map { text(of: names[Int(record.firstName) + 1 + $0]) }
        }
    }

    var count: Int { records.count }

    /// Adds a city with the alternate names `selection` keeps. An alternate name is dropped
    /// when it could never be reported (WORDS.md §3): its word key is empty, or each of its
    /// suffix keys starts a suffix key of a name kept before it (then every query it matches
    /// also matches that earlier name: "New York" after "New York City").
    mutating func append(_ city: ParsedCity, folder: Folder, alternateNames selection: AlternateNameSelection = .all) {
        let nameStart = nameArena.count
        let keyStart = keyArena.count
        let primary = String(decoding: city.nameBytes, as: UTF8.self)
        folder.appendFolded(primary.unicodeScalars, to: &keyArena)
        let firstName = names.count
        appendName(city.nameBytes, text: primary, folder: folder)
        // Arrays, not slices: a slice would share the arena and make every append copy it.
        var keptSuffixKeys: [[UInt8]] = suffixKeys(of: names[firstName])
        for alternate in city.alternateNames where selection.includes(alternate) {
            // A name slot is a u16 (FORMAT.md §10): alternates beyond 65,535 are not stored.
            guard names.count - firstName - 1 < Int(UInt16.max) else { break }
            let mark = (names: names.count, nameArena: nameArena.count, wordKeys: wordKeyArena.count, starts: wordStarts.count)
            appendName(alternate, text: String(decoding: alternate, as: UTF8.self), folder: folder)
            let suffixes = suffixKeys(of: names[mark.names])
            let covered = suffixes.allSatisfy { suffix in keptSuffixKeys.contains { $0.starts(with: suffix) } }
            if covered {   // also when there are no words at all
                names.removeLast()
                nameArena.removeSubrange(mark.nameArena...)
                wordKeyArena.removeSubrange(mark.wordKeys...)
                wordStarts.removeSubrange(mark.starts...)
            } else {
                keptSuffixKeys.append(contentsOf: suffixes)
            }
        }
        records.append(Record(
            id: city.id, countryCode: city.countryCode, nameByteCount: UInt16(city.nameBytes.count),
            latitudeMicrodegrees: city.latitudeMicrodegrees, longitudeMicrodegrees: city.longitudeMicrodegrees,
            population: city.population ?? IndexLayout.unknownPopulation,
            nameStart: UInt32(nameStart), keyStart: UInt32(keyStart), keyByteCount: UInt32(keyArena.count - keyStart),
            firstName: UInt32(firstName), alternateCount: UInt16(clamping: names.count - firstName - 1),
            line: UInt32(clamping: city.position.line), column: UInt32(clamping: city.position.column)))
    }

    private mutating func appendName(_ bytes: [UInt8], text: String, folder: Folder) {
        let nameStart = nameArena.count
        nameArena.append(contentsOf: bytes)
        let (key, starts) = WordKey.encode(text.unicodeScalars, with: folder.table)
        names.append(Name(nameStart: UInt32(nameStart), nameByteCount: UInt16(bytes.count), wordCount: UInt16(clamping: starts.count),
                          wordKeyStart: UInt32(wordKeyArena.count), wordKeyByteCount: UInt32(key.count),
                          firstWordStart: UInt32(wordStarts.count)))
        wordKeyArena.append(contentsOf: key)
        wordStarts.append(contentsOf: starts.prefix(Int(UInt16.max)).map { UInt32($0) })
    }

    /// The suffix keys of a name: its word key from each word on.
    private func suffixKeys(of name: Name) -> [[UInt8]] {
        let key = wordKey(of: name)
        return wordStartOffsets(of: name).map { start -> [UInt8] in Array(key[(key.startIndex + Int(start))...]) }
    }

    func name(of record: Record) -> ArraySlice<UInt8> {
        nameArena[Int(record.nameStart) ..< Int(record.nameStart) + Int(record.nameByteCount)]
    }

    func key(of record: Record) -> ArraySlice<UInt8> {
        keyArena[Int(record.keyStart) ..< Int(record.keyStart) + Int(record.keyByteCount)]
    }

    func text(of name: Name) -> ArraySlice<UInt8> {
        nameArena[Int(name.nameStart) ..< Int(name.nameStart) + Int(name.nameByteCount)]
    }

    func wordKey(of name: Name) -> ArraySlice<UInt8> {
        wordKeyArena[Int(name.wordKeyStart) ..< Int(name.wordKeyStart + name.wordKeyByteCount)]
    }

    /// The offsets in the word key where the name's words start.
    func wordStartOffsets(of name: Name) -> ArraySlice<UInt32> {
        wordStarts[Int(name.firstWordStart) ..< Int(name.firstWordStart) + Int(name.wordCount)]
    }
}
