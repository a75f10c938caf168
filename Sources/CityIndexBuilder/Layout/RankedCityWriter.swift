// RankedCityWriter.swift: the second pass of a build: every per-city section, from cities in search order.
import CityIndex

/// Receives the cities in search order (their rank is their position) and writes, in
/// bounded memory, every section indexed by rank: the `NODE` trie over the folded keys, the
/// `CITY` records and the `NAME` text they point into, `ALTN`, `IDIX`, `POPL` and `PORD`.
/// (The same cities' word postings are made beside it, by `WordPostingEmitter`.)
///
/// Identical primary names are stored once in `NAME`: they fold to identical keys, so
/// comparing within a run of equal keys finds every duplicate. Each run of equal keys is
/// the `NODE` entries of one key, in population order (`PORD` lists the entries whose rank
/// that order moves).
///
/// Memory: one run of equal keys, the open path of the trie, the sorters' budgets; every
/// section goes to scratch files as it grows. O(1) per city beyond its names' text.
struct RankedCityWriter {
    private let symbols: NameSymbolsWriter
    private let directory: String
    private let countries: [UInt16]
    /// The index in `countries` of each country code (a table, not a dictionary: read per city).
    private let countryIndex: [UInt16]
    private let nameByteCountWidth: Int
    private let populationWidth: Int
    private var rank = 0

    // The current run of equal keys.
    private var runKey: [UInt8] = []
    private var runFirstRank = 0
    private var runWeights: [UInt32] = []
    private var runNames: [(name: [UInt8], offset: Int)] = []

    private var nodeTrie: TrieSectionWriter
    /// Per rank: id, latitude, longitude, name offset, name length, country index (20 bytes).
    private var cityFields: SpillingByteWriter
    /// How many ranks share one start in `NAME` (chosen from every name offset).
    private var nameBlocks = NameBlockChooser()
    /// How wide a record's id is, and whether the widest ids are exceptions (from every id).
    private var idWidths = IDWidthChooser()
    /// The largest e ≤ 6 such that every coordinate is a multiple of 10^e millionths of a degree.
    private var coordinateExponent = CityRecordLayout.maximumCoordinateExponent
    private var names: SpillingByteWriter
    /// The name last placed in `NAME`, not written yet (`placeName`).
    private var pendingName: [UInt8] = []
    private var alternateText: SpillingByteWriter
    private var alternateBlockStarts: [UInt32] = []
    private var alternateDistances: PackedValuesFile
    private var populations: PackedBitsFileWriter
    private var movedEntries: [UInt32] = []
    private var movedRanks: [UInt32] = []
    private let ids: ExternalSorter
    private var record: [UInt8] = []

    init(preparer: CityPreparer, symbols: NameSymbolsWriter, directory: String, idBudget: Int) throws(IndexBuildError) {
        self.symbols = symbols
        self.directory = directory
        countries = preparer.countries
        var countryIndex = [UInt16](repeating: 0, count: 1 << 16)
        for (index, country) in countries.enumerated() { countryIndex[Int(country)] = UInt16(index) }
        self.countryIndex = countryIndex
        nameByteCountWidth = bitWidth(holding: UInt64(preparer.largestNameByteCount))
        populationWidth = bitWidth(holding: preparer.largestPopulationField)
        // Without populations, population order is search order: every node's best entry is its first.
        nodeTrie = TrieSectionWriter(storesBestDelta: populationWidth > 0,
                                     largestInlineReference: preparer.limits.largestInlineChildReference,
                                     output: try ScratchFile(directory: directory))
        cityFields = SpillingByteWriter(file: try ScratchFile(directory: directory))
        names = SpillingByteWriter(file: try ScratchFile(directory: directory))
        alternateText = SpillingByteWriter(file: try ScratchFile(directory: directory))
        alternateDistances = try PackedValuesFile(directory: directory)
        populations = try PackedBitsFileWriter(directory: directory)
        ids = ExternalSorter(memoryBudget: idBudget, directory: directory, prefix: { record in
            let entry = IDRecord(record)
            return UInt64(entry.id) << 32 | UInt64(entry.line)
        }) { a, b in
            let first = IDRecord(a), second = IDRecord(b)
            return (first.id, first.line, first.column) < (second.id, second.line, second.column)
        }
    }

    var hasPopulation: Bool { populationWidth > 0 }

    /// Adds the city of the next rank. O(its names' length).
    mutating func add(_ city: CityBlob) throws(IndexBuildError) {
        if rank == 0 || runKey.withUnsafeBytes({ compareKeys(city.key, $0) }) != 0 {
            if rank > 0 { try closeRun() }
            runKey = Array(city.key)
            runFirstRank = rank
        }
        runWeights.append(city.weight)

        // NAME: a name already stored for this key is pointed at again; a name that starts
        // the name last stored, or that the next one starts with, shares its bytes.
        let name = city.name
        let nameOffset: Int
        if let existing = runNames.first(where: { $0.name.elementsEqual(name) }) {
            nameOffset = existing.offset
        } else {
            nameOffset = try placeName(name)
            runNames.append((Array(name), nameOffset))
        }
        nameBlocks.add(offset: nameOffset)
        idWidths.add(id: city.id)
        narrowCoordinateExponent(city.latitudeMicrodegrees)
        narrowCoordinateExponent(city.longitudeMicrodegrees)
        try cityFields.appendLittleEndian(UInt64(city.id), byteCount: 4)
        try cityFields.appendLittleEndian(UInt64(UInt32(bitPattern: city.latitudeMicrodegrees)), byteCount: 4)
        try cityFields.appendLittleEndian(UInt64(UInt32(bitPattern: city.longitudeMicrodegrees)), byteCount: 4)
        try cityFields.appendLittleEndian(UInt64(nameOffset), byteCount: 4)
        try cityFields.appendLittleEndian(UInt64(name.count), byteCount: 2)
        try cityFields.appendLittleEndian(UInt64(countryIndex[Int(city.countryCode)]), byteCount: 2)

        if hasPopulation {
            let population = city.population
            try populations.append(population == IndexLayout.unknownPopulation ? 0 : UInt64(population) + 1, width: populationWidth)
        }
        try recordAlternateStart()

        // ALTN text.
        try city.forEachName { slot, text, _ throws(IndexBuildError) in
            guard slot > 0 else { return }
            let coded = symbols.encoded(Array(text)[...])
            try alternateText.appendVarint(UInt32(coded.count))
            try alternateText.append(coded)
        }
        record.removeAll(keepingCapacity: true)
        for value in [city.id, city.line, city.column, UInt32(rank)] {
            record.appendLittleEndian(value)
        }
        try ids.append(record)
        rank += 1
    }

    /// The offset in `NAME` of a name not stored yet. The last name placed is held back
    /// (`pendingName`, at `names.count`): when the next one starts with it, the longer one
    /// takes its place and both point at it; when it starts with the next one, the next one
    /// points into it. Names in search order are sorted by folded key, so "San José" is soon
    /// followed by "San José de Mayo" (on the 209k list 6.5% of the text is such prefixes).
    private mutating func placeName(_ name: UnsafeRawBufferPointer) throws(IndexBuildError) -> Int {
        if name.starts(with: pendingName) {
            pendingName = Array(name)
        } else if !pendingName.starts(with: name) {
            try names.append(pendingName)
            pendingName = Array(name)
        }
        return names.count
    }

    /// Lowers `coordinateExponent` until `microdegrees` is a multiple of 10^exponent.
    private mutating func narrowCoordinateExponent(_ microdegrees: Int32) {
        while coordinateExponent > 0, Int64(microdegrees) % CityRecordLayout.coordinateSteps[coordinateExponent] != 0 {
            coordinateExponent -= 1
        }
    }

    /// Where the alternate names of the next rank start in the `ALTN` text.
    private mutating func recordAlternateStart() throws(IndexBuildError) {
        let start = alternateText.count
        if rank % IndexLayout.alternateRanksPerBlock == 0 { alternateBlockStarts.append(UInt32(truncatingIfNeeded: start)) }
        try alternateDistances.append(UInt64(start - Int(alternateBlockStarts[alternateBlockStarts.count - 1])))
    }

    /// Adds the finished run of equal keys to the trie, its entries in population order.
    private mutating func closeRun() throws(IndexBuildError) {
        let weights = runWeights, first = runFirstRank
        func order(_ rank: Int) -> PopulationOrderKey { PopulationOrderKey(population: weights[rank - first], rank: rank, slot: 0) }
        var entries = Array(first ..< first + weights.count)
        if entries.count > 1 {
            entries.sort { order($0) < order($1) }
            for (index, rank) in entries.enumerated() where rank != first + index {
                movedEntries.append(UInt32(first + index))
                movedRanks.append(UInt32(rank))
            }
        }
        try nodeTrie.add(key: runKey, entryCount: entries.count, bestOrder: order(entries[0]))
        runWeights.removeAll(keepingCapacity: true)
        runNames.removeAll(keepingCapacity: true)
    }

    /// The `CITY` section from the spilled per-rank fields: the header, the country table, the
    /// records block by block of `2^nameBlockShift` ranks (each block's name start its
    /// smallest offset), the id exceptions found on the way (as many as `layout` says).
    private mutating func citySection(layout: CityRecordLayout, cityCount: Int) throws(IndexBuildError) -> [SectionPart] {
        try cityFields.finish()
        var bits = try PackedBitsFileWriter(directory: directory)
        var reader = ScratchFileReader(cityFields.file, bufferByteCount: 1 << 20)
        defer { reader.deallocate() }
        let step = layout.coordinateStep
        let idEscape = layout.idEscape
        let blockSize = 1 << layout.nameBlockShift
        var blockStarts = ByteWriter()
        var idExceptions = ByteWriter()
        for blockFirst in stride(from: 0, to: cityCount, by: blockSize) {
            let count = min(blockSize, cityCount - blockFirst)
            // Valid until the next read: every field of the block is read before it.
            let fields = try reader.next(20 * count)
            func word(_ record: Int, _ offset: Int) -> UInt64 {
                UInt64(UInt32(littleEndian: fields.loadUnaligned(fromByteOffset: 20 * record + offset, as: UInt32.self)))
            }
            func half(_ record: Int, _ offset: Int) -> UInt64 {
                UInt64(UInt16(littleEndian: fields.loadUnaligned(fromByteOffset: 20 * record + offset, as: UInt16.self)))
            }
            var blockStart = UInt64.max
            for record in 0 ..< count { blockStart = min(blockStart, word(record, 12)) }
            blockStarts.appendUInt32(UInt32(blockStart))
            for record in 0 ..< count {
                let latitude = Int64(Int32(bitPattern: UInt32(word(record, 4)))) + CityRecordLayout.latitudeBias
                let longitude = Int64(Int32(bitPattern: UInt32(word(record, 8)))) + CityRecordLayout.longitudeBias
                var id = word(record, 0)
                if id >= idEscape {
                    idExceptions.appendUInt32(UInt32(blockFirst + record))
                    idExceptions.appendUInt32(UInt32(id))
                    id = idEscape
                }
                try bits.append(id, width: layout.idWidth)
                try bits.append(UInt64(latitude / step), width: layout.latitudeWidth)
                try bits.append(UInt64(longitude / step), width: layout.longitudeWidth)
                try bits.append(word(record, 12) - blockStart, width: layout.nameDeltaWidth)
                try bits.append(half(record, 16), width: layout.nameByteCountWidth)
                try bits.append(half(record, 18), width: layout.countryWidth)
            }
        }
        assert(idExceptions.bytes.count == CityRecordLayout.idExceptionByteCount * layout.idExceptionCount)
        var header = ByteWriter()
        for width in [layout.idWidth, layout.nameDeltaWidth, layout.nameByteCountWidth, layout.countryWidth] {
            header.appendUInt8(UInt8(width))
        }
        header.appendUInt16(UInt16(countries.count))
        header.appendUInt8(UInt8(layout.coordinateExponent))
        header.appendUInt8(UInt8(layout.nameBlockShift))
        header.appendUInt32(UInt32(layout.idExceptionCount))
        header.appendUInt32(0)
        for country in countries { header.appendUInt16(country) }
        header.pad(toMultipleOf: 8)
        header.append(blockStarts.bytes)
        header.pad(toMultipleOf: 8)
        header.append(idExceptions.bytes)
        return [.bytes(header.bytes), .file(try bits.finish())]
    }

    /// What the build reports of the name trie.
    private(set) var distinctKeyCount = 0
    private(set) var nodeCount = 0

    /// Finishes every section and hands each to `add`.
    mutating func finish(add: (SectionKind, Bool, [SectionPart]) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        let cityCount = rank
        if cityCount > 0 { try closeRun() }
        let nodeHeader = try nodeTrie.finish()
        distinctKeyCount = nodeTrie.keyCount
        nodeCount = nodeTrie.nodeCount
        try add(.nodes, true, [.bytes(nodeHeader), .file(nodeTrie.outputFile)])

        // CITY: the widths are known now that every name offset and coordinate is.
        let nameBlockChoice = nameBlocks.choice()
        let idChoice = idWidths.choice()
        let layout = CityRecordLayout(idWidth: idChoice.width, nameDeltaWidth: nameBlockChoice.deltaWidth,
                                      nameByteCountWidth: nameByteCountWidth,
                                      countryWidth: bitWidth(holding: UInt64(max(countries.count - 1, 0))),
                                      coordinateExponent: coordinateExponent, nameBlockShift: nameBlockChoice.shift,
                                      idExceptionCount: idChoice.exceptionCount)
        try add(.cities, true, try citySection(layout: layout, cityCount: cityCount))
        try names.append(pendingName)
        try names.finish()
        try add(.names, true, [.file(names.file)])

        // ALTN: the header, where each rank's names start, then the text.
        try recordAlternateStart()   // where the text ends
        try alternateText.finish()
        var alternateHeader = ByteWriter()
        // Truncated when the text passes 4 GiB: IndexBuilder then refuses the section (BuildLimits).
        alternateHeader.appendUInt32(UInt32(truncatingIfNeeded: alternateText.count))
        alternateHeader.appendUInt32(0)
        for start in alternateBlockStarts { alternateHeader.appendUInt32(start) }
        alternateHeader.pad(toMultipleOf: 8)
        try add(.alternateNames, true, [.bytes(alternateHeader.bytes)] + (try alternateDistances.packedArray(directory: directory))
                + [.file(alternateText.file)])

        // IDIX: ranks by increasing id; two cities with one id are an error naming both.
        let rankWidth = bitWidth(holding: UInt64(max(cityCount - 1, 0)))
        var idBits = try PackedBitsFileWriter(directory: directory)
        let byID = try ids.sorted(mergeBufferBudget: 4 << 20)
        var previous: (id: UInt32, line: UInt32, column: UInt32)?
        while let bytes = try byID.next() {
            let entry = IDRecord(bytes)
            if let previous, previous.id == entry.id {
                throw .invalidCityList(CityListError(line: Int(entry.line), column: Int(entry.column), recordID: entry.id,
                                                     message: "duplicate _id \(entry.id): also at \(previous.line):\(previous.column)"))
            }
            previous = (entry.id, entry.line, entry.column)
            try idBits.append(UInt64(entry.rank), width: rankWidth)
        }
        try add(.idIndex, true, [.bytes(PackedBitsFileWriter.arrayHeader(width: rankWidth, secondWidth: 0, count: cityCount)),
                                 .file(try idBits.finish())])

        if hasPopulation {
            try add(.population, false, [.bytes(PackedBitsFileWriter.arrayHeader(width: populationWidth, secondWidth: 0, count: cityCount)),
                                         .file(try populations.finish())])
            var moved = ByteWriter(capacity: IndexLayout.populationOrderHeaderByteCount + movedEntries.count * 8)
            moved.appendUInt32(UInt32(movedEntries.count))
            moved.appendUInt32(0)
            for entry in movedEntries { moved.appendUInt32(entry) }
            for rank in movedRanks { moved.appendUInt32(rank) }
            try add(.populationOrder, false, [.bytes(moved.bytes)])
        }
    }
}

/// An entry of the id sort: id, line, column, rank (`u32` each).
private struct IDRecord {
    let id: UInt32, line: UInt32, column: UInt32, rank: UInt32

    init(_ bytes: UnsafeRawBufferPointer) {
        id = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        line = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        column = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        rank = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    }
}
