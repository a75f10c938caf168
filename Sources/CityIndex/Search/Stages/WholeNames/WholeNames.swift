// WholeNames.swift: "porto" finds Porto among the cities whose names start with it (WORDS.md §14).

/// The whole-name rule of population-ordered word matching (WORDS.md §14).
///
/// The most populous city whose **primary name is the whole query** (its word key is a key of
/// the query that costs nothing: as typed, or an abbreviation variant, §7) weighs its
/// population times `populationFactor`, as if the query had named it outright, while cities
/// whose names merely start with the query keep their population. So "porto" gives Porto
/// (249,633) among Porto Alegre (1.4 million), Porto Velho and Porto-Novo, not after them; a
/// city more than `populationFactor` times larger still comes first. One city per key: its
/// namesakes are told apart by population (and by places and location, §10, §11), and
/// promoting all of them would bury longer names that start with theirs ("sta cruz": the
/// towns called Santa Cruz before Santa Cruz de Tenerife). Only primary names: an alternate
/// says nothing of its language or age (Freetown's "Saint George" is a historic name).
///
/// The query's key is the first run of postings below its node (`WPST` is sorted by suffix
/// key, each key's run in population order, FORMAT.md §7.7): the names whose last words are
/// the key. Its primary names are read until the first whole one (names that end with the
/// key's words are passed: "Vila Nova de Porto"); its alternates are passed unread.
enum WholeNames {
    /// A whole primary name's match weighs the city's population times this.
    static let populationFactor: UInt64 = 3
}

extension CityIndex {
    /// The match, per key of the plan that costs nothing (`keys`, UTF-8 word keys, each with its
    /// position among the walk's keys), of the most populous city whose primary name is the
    /// whole key (`largestCity(namedWhole:minimumPopulation:meter:)`), marked as such; most
    /// populous first. O(*v*·*m*) for *v* keys of *m* bytes, plus the primary names of each
    /// key's own run read up to its first whole one (and one past the run), each O(its
    /// length), and its postings passed; the meter is charged for the postings visited.
    func wholeNameEntries(forKeys keys: [(key: [UInt8], variant: Int)], meter: SearchMeter?) throws(IndexFileError) -> [SearchCandidates.Entry] {
        var found: [SearchCandidates.Entry] = []
        for (key, variant) in keys {
            guard let (rank, _) = try largestCity(namedWhole: key, minimumPopulation: 0, meter: meter),
                  !found.contains(where: { $0.rank == UInt32(rank) }) else { continue }
            found.append(SearchCandidates.Entry(rank: UInt32(rank), slot: 0, variant: UInt8(truncatingIfNeeded: variant), isWholeName: true))
        }
        return found.sorted { a, b in
            let (populationA, populationB) = (contents.population(ofRank: Int(a.rank)), contents.population(ofRank: Int(b.rank)))
            return populationA != populationB ? populationA > populationB : a.rank < b.rank
        }
    }
}
