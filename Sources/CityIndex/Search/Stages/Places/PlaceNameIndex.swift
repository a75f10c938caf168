// PlaceNameIndex.swift: the countries and regions an index names, found by what people type.
import Synchronization

/// Every name of the index's countries (`CTRY`: name, aliases, alpha-3 and alpha-2 codes) and
/// regions (`REGN`: name, aliases, abbreviation, and the code when it has a letter), by word
/// key (WORDS.md §2), for qualified queries (WORDS.md §10: "paris tx", "london, uk").
///
/// Built on first use from the two sections, O(their names), then shared by every search of
/// the index (`PlaceNameIndex.Cache`); opening an index does not build it.
struct PlaceNameIndex: Sendable {
    /// A country (an index into `CITY`'s country table) or a region (of `REGN`).
    enum Place: Hashable, Sendable {
        case country(Int)
        case region(Int)
    }

    /// Names of at least this many letters also match with typos (codes never do).
    static let shortestForgivenName = 4

    private var byKey: [[UInt8]: [Place]] = [:]
    /// The names that match with typos: their key's scalars, and what they name.
    private var forgiven: [(scalars: [UInt32], places: [Place])] = []

    init(contents: IndexContents) {
        var names: [(String, Place, isCode: Bool)] = []
        if let countryNames = contents.countryNames {
            for country in 0 ..< countryNames.names.listCount {
                let strings = countryNames.names.strings(ofList: country)
                names.append((IndexContents.countryText(contents.records.countryCode(atIndex: country)), .country(country), true))
                if let code3 = strings.first, !code3.isEmpty { names.append((code3, .country(country), true)) }
                for name in strings.dropFirst() { names.append((name, .country(country), false)) }
            }
        }
        if let regions = contents.regions {
            for region in 0 ..< regions.regionCount {
                guard let place = contents.region(region) else { continue }
                if place.code.contains(where: \.isLetter) { names.append((place.code, .region(region), true)) }
                if let abbreviation = place.abbreviation { names.append((abbreviation, .region(region), true)) }
                for name in [place.name].compactMap({ $0 }) + place.aliases { names.append((name, .region(region), false)) }
            }
        }
        var forgivenByKey: [[UInt8]: [Place]] = [:]
        for (name, place, isCode) in names {
            let key = SearchPlan.key(of: name, matching: .words, foldTable: contents.foldTable)
            guard !key.isEmpty else { continue }
            if !(byKey[key]?.contains(place) ?? false) { byKey[key, default: []].append(place) }
            if !isCode, CityIndex.scalars(of: key).count(where: { $0 != 0x20 }) >= Self.shortestForgivenName,
               !(forgivenByKey[key]?.contains(place) ?? false) {
                forgivenByKey[key, default: []].append(place)
            }
        }
        forgiven = forgivenByKey.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (CityIndex.scalars(of: $0.key), $0.value) }
    }

    /// The places one of whose names has word key `key`.
    func places(named key: [UInt8]) -> [Place] { byKey[key] ?? [] }

    /// The places one of whose names (not codes) of at least `shortestForgivenName` letters is
    /// within `budget` edits of `key`, the fewest edits found, and that number of edits.
    /// O(names) distance checks.
    func places(within budget: Int, of key: [UInt8]) -> (places: [Place], edits: Int) {
        guard budget > 0 else { return (places(named: key), 0) }
        let scalars = CityIndex.scalars(of: key)
        var distances = BoundedEditDistance(from: scalars)
        var best = budget + 1
        var found: [Place] = []
        for name in forgiven where abs(name.scalars.count - scalars.count) <= budget {
            guard let distance = distances.distance(to: name.scalars, bound: min(budget, best)) else { continue }
            if distance < best { (best, found) = (distance, []) }
            for place in name.places where !found.contains(place) { found.append(place) }
        }
        return (found, best)
    }

    /// The index of one file, built by the first search that needs it.
    final class Cache: Sendable {
        private let built = Mutex<PlaceNameIndex?>(nil)

        func index(of contents: IndexContents) -> PlaceNameIndex {
            built.withLock { built in
                if let built { return built }
                let index = PlaceNameIndex(contents: contents)
                built = index
                return index
            }
        }
    }
}
