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
    /// - Throws: `CityListError` at the city's position when a 32-bit limit of `limits` would
    ///   be crossed (FORMAT.md §10); the collection is then not to be used.
    mutating func append(_ city: ParsedCity, folder: Folder, alternateNames selection: AlternateNameSelection = .all,
                         limits: BuildLimits = BuildLimits()) throws {
        let nameStart = nameArena.count
        let keyStart = keyArena.count
        let primary = String(decoding: city.nameBytes, as: UTF8.self)
        folder.appendFolded(primary.unicodeScalars, to: &keyArena)
        let firstName = names.count
        appendName(city.nameBytes, text: primary, folder: folder)
        // Arrays, not slices: a slice would share the arena and make every append copy it. Each
        // with whether a match of it is demoted (never for the primary name's; WORDS.md §5).
        var keptSuffixKeys: [(key: [UInt8], isDemoted: Bool)] = suffixKeys(of: names[firstName]).map { ($0, false) }
        for alternate in city.alternateNames where selection.includes(alternate) {
            // A name slot is a u16 (FORMAT.md §10): alternates beyond 65,535 are not stored.
            guard names.count - firstName - 1 < Int(UInt16.max) else { break }
            let mark = (names: names.count, nameArena: nameArena.count, wordKeys: wordKeyArena.count, starts: wordStarts.count)
            appendName(alternate, text: String(decoding: alternate, as: UTF8.self), folder: folder)
            // Dropped when every query that matches it matches a name kept before it, no more
            // demoted there (WORDS.md §3): that name would be reported instead.
            let looksMachineMade = alternate.withUnsafeBytes { AlternateDemotion.looksMachineMade($0, foldTable: folder.table) }
            let suffixes = suffixKeys(of: names[mark.names]).enumerated().map { wordIndex, key in
                (key: key, isDemoted: wordIndex > 0 || looksMachineMade)
            }
            let covered = suffixes.allSatisfy { suffix in
                keptSuffixKeys.contains { $0.key.starts(with: suffix.key) && (!$0.isDemoted || suffix.isDemoted) }
            }
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
            nameStart: UInt32(truncatingIfNeeded: nameStart), keyStart: UInt32(truncatingIfNeeded: keyStart),
            keyByteCount: UInt32(truncatingIfNeeded: keyArena.count - keyStart), firstName: UInt32(truncatingIfNeeded: firstName), alternateCount: UInt16(clamping: names.count - firstName - 1),
            line: UInt32(clamping: city.position.line), column: UInt32(clamping: city.position.column)))
        // Offsets above were stored truncated when an arena passed the limit: refuse it here,
        // at the record that crossed it, before the collection is used.
        let arenas: [(String, Int)] = [("name text", nameArena.count), ("folded key text", keyArena.count),
                                       ("word key text", wordKeyArena.count), ("word starts", wordStarts.count),
                                       ("names", names.count), ("cities", records.count)]
        for (what, count) in arenas where count > limits.maximumArenaByteCount {
            throw CityListError(line: city.position.line, column: city.position.column, recordID: city.id,
                                message: "the list is too large for one index: its \(what) passes \(limits.maximumArenaByteCount) "
                                    + "(32-bit offsets, FORMAT.md §10) at this record; split the list into several indexes")
        }
    }

    private mutating func appendName(_ bytes: [UInt8], text: String, folder: Folder) {
        let nameStart = nameArena.count
        nameArena.append(contentsOf: bytes)
        let (key, starts) = WordKey.encode(text.unicodeScalars, with: folder.table)
        // Offsets are truncated past 4 GiB; `append` then refuses the list (BuildLimits).
        names.append(Name(nameStart: UInt32(truncatingIfNeeded: nameStart), nameByteCount: UInt16(bytes.count),
                          wordCount: UInt16(clamping: starts.count), wordKeyStart: UInt32(truncatingIfNeeded: wordKeyArena.count),
                          wordKeyByteCount: UInt32(truncatingIfNeeded: key.count), firstWordStart: UInt32(truncatingIfNeeded: wordStarts.count)))
        wordKeyArena.append(contentsOf: key)
        wordStarts.append(contentsOf: starts.prefix(Int(UInt16.max)).map { UInt32(truncatingIfNeeded: $0) })
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
