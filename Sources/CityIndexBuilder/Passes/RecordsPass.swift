// RecordsPass.swift: the second pass of a build: every section indexed by rank, from cities in search order.
import CityIndex

/// Receives the cities in search order (their rank is their position) and hands each to the
/// writer of every section indexed by rank: `NODE` (`TrieSectionWriter`, one key per run of
/// equal keys), `CITY`, `NAME`, `ALTN`, `IDIX`, `POPL`, `PORD`, `REGN`, `CTRY` and `GEOK`. (The same cities' word
/// postings are made beside it, by `WordPostingEmitter`.)
///
/// Memory: one run of equal keys, the open path of the trie, the id sort's budget, and 12
/// bytes per city for the spatial index (`SpatialIndexWriter`); every other section goes to
/// scratch files as it grows.
struct RecordsPass {
    private var run = EqualKeyRun()
    private var cityCount = 0
    private var nodes: TrieSectionWriter
    private var records: CityRecordsWriter
    private var nameText: NameTextWriter
    private var alternateNames: AlternateNamesWriter
    private var idIndex: IDIndexWriter
    private var populations: PopulationsWriter?
    private var nodeEntryRanks = NodeEntryRanksWriter()
    private var regions: RegionsWriter?
    private var spatialIndex = SpatialIndexWriter()
    private let directory: String
    /// `CTRY`, made at the start (it depends on the countries alone).
    private let countryNames: [UInt8]?

    /// What the build reports of the name trie.
    private(set) var distinctKeyCount = 0
    private(set) var nodeCount = 0

    init(preparer: CityPreparer, symbols: NameSymbolsWriter, places: PlaceNames?, directory: String,
         idBudget: Int) throws(IndexBuildError) {
        let countries = preparer.countries
        self.directory = directory
        populations = try PopulationsWriter(largestField: preparer.largestPopulationField, directory: directory)
        // Without populations, population order is search order: every node's best entry is its first.
        nodes = TrieSectionWriter(storesBestDelta: populations != nil,
                                  largestInlineReference: preparer.limits.largestInlineChildReference,
                                  output: try ScratchFile(directory: directory))
        records = try CityRecordsWriter(countries: countries, largestNameByteCount: preparer.largestNameByteCount,
                                        directory: directory)
        nameText = try NameTextWriter(directory: directory)
        alternateNames = try AlternateNamesWriter(symbols: symbols, directory: directory)
        idIndex = IDIndexWriter(directory: directory, memoryBudget: idBudget)
        regions = try RegionsWriter(regionNumbers: preparer.regionNumbers, countries: countries, places: places, directory: directory)
        countryNames = try places.flatMap { places throws(IndexBuildError) in
            try CountryNamesWriter.sectionBytes(countries: countries, places: places)
        }
    }

    /// Adds the city of the next rank. O(its names' length).
    mutating func add(_ city: CityBlob) throws(IndexBuildError) {
        if !run.contains(key: city.key) {
            try closeRun()
            run.start(key: city.key, rank: cityCount)
            nameText.startRun()
        }
        run.add(weight: city.weight)
        try records.add(city, nameOffset: try nameText.offset(storing: city.name))
        try populations?.add(population: city.population)
        try alternateNames.add(city)
        try idIndex.add(city, rank: cityCount)
        try regions?.add(regionField: city.regionField)
        spatialIndex.add(city)
        cityCount += 1
    }

    /// Adds the finished run of equal keys to the trie, its entries in population order.
    private mutating func closeRun() throws(IndexBuildError) {
        guard !run.isEmpty else { return }
        let ranks = run.ranksInPopulationOrder()
        nodeEntryRanks.add(runStartingAt: run.firstRank, populationOrder: ranks)
        try nodes.add(key: run.key, entryCount: ranks.count, bestOrder: run.orderKey(ofRank: ranks[0]))
    }

    /// Finishes every section and hands each to `add`, in the order the file lists them.
    mutating func finish(add: (SectionKind, Bool, [SectionPart]) throws(IndexBuildError) -> Void) throws(IndexBuildError) {
        try closeRun()
        let nodeHeader = try nodes.finish()
        distinctKeyCount = nodes.keyCount
        nodeCount = nodes.nodeCount
        try add(.nodes, true, [.bytes(nodeHeader), .file(nodes.outputFile)])
        try add(.cities, true, try records.finish())
        try add(.names, true, try nameText.finish())
        try add(.alternateNames, true, try alternateNames.finish())
        try add(.idIndex, true, try idIndex.finish(cityCount: cityCount))
        if var populations {
            try add(.population, false, try populations.finish(cityCount: cityCount))
            try add(.populationOrder, false, [.bytes(nodeEntryRanks.sectionBytes)])
        }
        if var regions { try add(.regions, false, try regions.finish(cityCount: cityCount)) }
        if let countryNames { try add(.countryNames, false, [.bytes(countryNames)]) }
        if let spatial = try spatialIndex.finish(directory: directory) { try add(.spatialIndex, false, spatial) }
    }
}
