// OvershadowingTests.swift: borrowed names, districts, junk and forgiven matches come after the city meant (WORDS.md §13).
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Testing

@Suite("Overshadowed matches (WORDS.md §13)")
struct OvershadowingTests {
    static let index = try! CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
        [{"country":"US","name":"New York City","_id":1,"coord":{"lon":-74.0,"lat":40.71},"population":8804190,"alternatenames":["New York"]},
         {"country":"ID","name":"Jakarta","_id":2,"coord":{"lon":106.85,"lat":-6.21},"population":8540121,"alternatenames":["New York Van Java","Batavia"]},
         {"country":"US","name":"New York Mills","_id":3,"coord":{"lon":-75.29,"lat":43.11},"population":3191},
         {"country":"US","name":"Phoenix","_id":4,"coord":{"lon":-112.07,"lat":33.45},"population":1608139},
         {"country":"PL","name":"Warsaw","_id":5,"coord":{"lon":21.01,"lat":52.23},"population":1702139,"alternatenames":["Phoenix City"]},
         {"country":"US","name":"Phoenixville","_id":6,"coord":{"lon":-75.51,"lat":40.13},"population":16440},
         {"country":"FR","name":"Paris","_id":7,"coord":{"lon":2.3488,"lat":48.85341},"population":2138551},
         {"country":"FR","name":"Paris 15 Vaugirard","_id":8,"coord":{"lon":2.3003,"lat":48.8412},"population":235178},
         {"country":"FR","name":"Paris Nord","_id":9,"coord":{"lon":3.0,"lat":50.0},"population":50000},
         {"country":"US","name":"Paris","_id":10,"coord":{"lon":-95.56,"lat":33.66},"population":24782},
         {"country":"AT","name":"Vienna","_id":11,"coord":{"lon":16.37,"lat":48.21},"population":1897491,"alternatenames":["Wien"]},
         {"country":"CN","name":"Wenzhou","_id":12,"coord":{"lon":120.67,"lat":28.0},"population":9122000},
         {"country":"CO","name":"Bogotá","_id":13,"coord":{"lon":-74.08,"lat":4.61},"population":7674366},
         {"country":"US","name":"Bogata","_id":14,"coord":{"lon":-95.21,"lat":33.47},"population":1153},
         {"country":"CN","name":"Beijing","_id":15,"coord":{"lon":116.4,"lat":39.9},"population":18960744,"alternatenames":["Peking"]},
         {"country":"GB","name":"Basingstoke","_id":16,"coord":{"lon":-1.09,"lat":51.26},"population":107355,"alternatenames":["beijingusutoku"]},
         {"country":"CN","name":"Beijinglu","_id":17,"coord":{"lon":118.38,"lat":31.32},"population":500},
         {"country":"US","name":"Kosciusko","_id":18,"coord":{"lon":-89.59,"lat":33.06},"population":7000,"alternatenames":["Peking"]},
         {"country":"US","name":"Pekin","_id":19,"coord":{"lon":-89.64,"lat":40.57},"population":32000},
         {"country":"CZ","name":"Dubí","_id":20,"coord":{"lon":13.79,"lat":50.69},"population":7600},
         {"country":"AE","name":"Dubai","_id":21,"coord":{"lon":55.31,"lat":25.08},"population":3790000},
         {"country":"BO","name":"La Paz","_id":22,"coord":{"lon":-68.15,"lat":-16.5},"population":812799},
         {"country":"US","name":"Lapaz","_id":23,"coord":{"lon":-86.3,"lat":41.46},"population":2000},
         {"country":"FR","name":"Lyon","_id":24,"coord":{"lon":4.85,"lat":45.75},"population":522969},
         {"country":"GB","name":"London","_id":25,"coord":{"lon":-0.13,"lat":51.51},"population":8961989},
         {"country":"FR","name":"Sainte-Foy-lès-Lyon","_id":26,"coord":{"lon":4.8,"lat":45.73},"population":22000},
         {"country":"CN","name":"Beining","_id":27,"coord":{"lon":121.79,"lat":41.6},"population":50000},
         {"country":"HU","name":"Budapest","_id":28,"coord":{"lon":19.04045,"lat":47.49835},"population":1741041},
         {"country":"HU","name":"Budapest XVII. kerület","_id":29,"coord":{"lon":19.25388,"lat":47.47997},"population":80000},
         {"country":"HU","name":"Budapest Kertváros","_id":30,"coord":{"lon":19.25388,"lat":47.47997},"population":70000}]
        """.utf8)).bytes)

    /// The names of the first `limit` cities the recommended mode gives, each with the
    /// alternate it matched by.
    func top(_ query: String, limit: Int = 10, matching: MatchMode = .words, order: ResultOrder = .population,
             typos: TypoTolerance = .automatic, countries: Set<String>? = nil) throws -> [String] {
        try Self.index.search(query, matching: matching, order: order, limit: limit, typos: typos, countries: countries)
            .map { $0.name + ($0.matchedAlternateName.map { " [\($0)]" } ?? "") + ($0.editCount > 0 ? " ~\($0.editCount)" : "") }
    }

    @Test("district: within 2 km + 10 km × √(millions) of the larger city, not beyond")
    func districtRadius() throws {
        // Bigtown has 1 million people: districts lie within 12 km. North at 11 km is one;
        // East at 13 km is a town of its own (0.1° of latitude is 11.1 km, of longitude at
        // the equator too).
        let index = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
            [{"country":"XX","name":"Bigtown","_id":1,"coord":{"lon":0,"lat":0},"population":1000000},
             {"country":"XX","name":"Bigtown North","_id":2,"coord":{"lon":0,"lat":0.099},"population":10000},
             {"country":"XX","name":"Bigtown East","_id":3,"coord":{"lon":0.117,"lat":0},"population":9000}]
            """.utf8)).bytes)
        let found = try index.search("bigtown", matching: .words, order: .population, limit: 3, typos: .none)
        #expect(found.map(\.id) == [1, 3, 2])
        #expect(found.map(\.overshadowing) == [nil, nil, .district])
        let north = NaiveNearest.distance(latitude: 0, longitude: 0, toLatitude: 0.099, longitude: 0)
        let east = NaiveNearest.distance(latitude: 0, longitude: 0, toLatitude: 0, longitude: 0.117)
        #expect(north < 12_000 && east > 12_000 && east < 14_000, "\(north) \(east)")
    }

    @Test("covered words found in key space are those of the highlight (an exact word query's)")
    func coveredWordsInKeySpace() {
        let names = ["New York Van Java", "Straße am Berg", "Saint-Étienne-du-Rouvray", "Ærøskøbing", "Zu\u{308}rich (Kreis 4)",
                     "  St. Peter  Ording ", "Ijsselstein", "Đà Nẵng", "Νέα Σμύρνη", "Ōsaka-shi", "ﬁnland ﬂats", "Köln-Ehrenfeld"]
        for name in names {
            let key = Array(name.unicodeScalars)
            // Every query that starts at a scalar of the name and runs one or more scalars on.
            for start in key.indices {
                for end in start + 1 ... key.count {
                    let query = String(String.UnicodeScalarView(key[start ..< end]))
                    let found = Self.index.coveredWordsForTesting(inName: name, query: query)
                    #expect(found.keySpace == found.highlight, "\(name) for \(query)")
                }
            }
        }
        // Queries that end inside a scalar's fold ("ß" is "ss", "Æ" "ae", "ﬁ" "fi"): the highlight
        // takes the whole scalar, and so do the covered words.
        for (name, query, expected) in [("Groß Gerau", "gros", "gross 1/2"), ("Ærø Læ", "aero la", "aero lae 2/2"),
                                        ("Proﬁ Park", "prof", "profi 1/2"), ("Groß Gerau", "gross g", "gross gerau 2/2 inside")] {
            let found = Self.index.coveredWordsForTesting(inName: name, query: query)
            #expect(found.keySpace == found.highlight, "\(name) for \(query)")
            #expect(found.keySpace == expected, "\(name) for \(query)")
        }
    }

    @Test("borrowed name: an alternate covering another, larger or shorter-named city's words weighs 0")
    func borrowedNames() throws {
        // Before: Jakarta by "New York Van Java" (a tenth of 8.5 million) before New York Mills (3,191).
        #expect(try top("new york") == ["New York City", "New York Mills", "Jakarta [New York Van Java]"])
        // Warsaw (1.7 million) is larger than Phoenix, but "Phoenix City" has more words than it covers.
        #expect(try top("pheonix") == ["Phoenix ~1", "Phoenixville ~1", "Warsaw [Phoenix City] ~1"])
        // One word, like Beijing's "Peking", on a smaller city: after the typo match of Pekin.
        #expect(try top("peking") == ["Beijing [Peking]", "Pekin ~1", "Kosciusko [Peking]"])
        // The query covers other words than New York City's: no mark.
        #expect(try top("java", typos: .none) == ["Jakarta [New York Van Java]"])
        #expect(try top("batavia") == ["Jakarta [Batavia]"])
    }

    @Test("district: a primary name that is a nearby, larger city's name and more words weighs 0")
    func districts() throws {
        // Before: the arrondissement (235,178) second. Paris Nord is 130 km away: not a district.
        #expect(try top("paris") == ["Paris", "Paris Nord", "Paris", "Paris 15 Vaugirard"])
        // Queries past the parent's words find it first.
        #expect(try top("paris 15") == ["Paris 15 Vaugirard"])
        #expect(try top("vaugirard") == ["Paris 15 Vaugirard"])
        #expect(try top("paris 15 v").first == "Paris 15 Vaugirard")
        // Restricted to France: the district still after Paris Nord.
        #expect(try top("paris", countries: ["FR"]) == ["Paris", "Paris Nord", "Paris 15 Vaugirard"])
    }

    @Test("district: a name that goes on with a district's number or word is one wherever it lies")
    func districtByName() throws {
        // 16 km from Budapest's point, beyond its 15.2 km: a district by its "XVII." and "kerület";
        // "Kertváros" at the same place designates nothing.
        let matches = try Self.index.search("budapest", matching: .words, order: .population, limit: 10, typos: .automatic)
        #expect(matches.map(\.name) == ["Budapest", "Budapest Kertváros", "Budapest XVII. kerület"])
        #expect(matches.map(\.overshadowing) == [nil, nil, .district])
    }

    @Test("junk: a machine-made alternate matched inside a word or with typos weighs 0, after the forgiven matches")
    func junk() throws {
        // Before: Basingstoke by "beijingusutoku" (a hundredth of 107,355) before Beijinglu (500).
        #expect(try top("beijing") == ["Beijing", "Beijinglu", "Beining ~1", "Basingstoke [beijingusutoku]"])
        // The whole alternate, exactly: an ordinary demoted match.
        #expect(try top("beijingusutoku") == ["Basingstoke [beijingusutoku]"])
    }

    @Test("forgiven beside an exact name: a typo match comes after every exact match, unless its city has a hundred times the people of the largest city named exactly (then it weighs a tenth)")
    func forgiven() throws {
        // Before (a tenth): London (9.0 million, one typo: 89,619) before Sainte-Foy-lès-Lyon (22,000).
        #expect(try top("lyon") == ["Lyon", "Sainte-Foy-lès-Lyon", "London ~1"])
        // Before round 2: Wenzhou (9.1 million, one typo: 912,200) before Vienna's "Wien" (189,749).
        #expect(try top("wien") == ["Vienna [Wien]", "Wenzhou ~1"])
        // Bogotá has more than a hundred times Bogata's people, Dubai Dubí's: a tenth.
        #expect(try top("bogata") == ["Bogotá ~1", "Bogata"])
        #expect(try top("dubi") == ["Dubai ~1", "Dubí"])
        // Spacing is not forgiven: La Paz keeps its weight beside Lapaz.
        #expect(try top("lapaz") == ["La Paz ~1", "Lapaz"])
        // Without a whole name that is the query, typo matches keep their weight.
        let typed = try Self.index.search("wenzhuo", matching: .words, order: .population, limit: 10, typos: .automatic)
        #expect(typed.map(\.name) == ["Wenzhou"])
        #expect(typed.map(\.overshadowing) == [nil])
    }

    @Test("forgiven beside an exact name: the largest city named exactly may be named by an alternate, after a smaller primary name")
    func largestExactNameByAlternate() throws {
        // WPST orders the key's run by weight: Bora (50,000) before Bigcity's "Bora" (a tenth of
        // 400,000). The largest city named exactly is Bigcity, so Boca (10 million, one typo, less
        // than a hundred times 400,000) weighs 0; beside Bora alone it would weigh a tenth.
        let index = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
            [{"country":"XX","name":"Bora","_id":1,"coord":{"lon":0,"lat":0},"population":50000},
             {"country":"XX","name":"Bigcity","_id":2,"coord":{"lon":1,"lat":1},"population":400000,"alternatenames":["Bora"]},
             {"country":"XX","name":"Boca","_id":3,"coord":{"lon":2,"lat":2},"population":10000000}]
            """.utf8)).bytes)
        let found = try index.search("bora", matching: .words, order: .population, limit: 3, typos: .automatic)
        #expect(found.map(\.id) == [1, 2, 3])
        // Bigcity's "Bora" is Bora's name, and Bora has more than a hundredth of its people: a tenth.
        #expect(found.map(\.overshadowing) == [nil, .namesAnotherCity, .forgivenBesideExactName])
    }

    @Test("named city: an alternate that is another city's whole name, that city having a hundredth of the people or more, weighs a tenth, wherever that city is")
    func namedCity() throws {
        let index = try CityIndex(bytes: IndexBuilder().build(jsonBytes: Array("""
            [{"country":"US","name":"Saint George","_id":1,"coord":{"lon":-113.58,"lat":37.1},"population":72897},
             {"country":"SL","name":"Freetown","_id":2,"coord":{"lon":-13.24,"lat":8.49},"population":802639,"alternatenames":["Saint George"]},
             {"country":"CA","name":"Saint-Georges","_id":3,"coord":{"lon":-70.67,"lat":46.11},"population":31173},
             {"country":"CN","name":"Guangzhou","_id":4,"coord":{"lon":113.25,"lat":23.12},"population":16096724,"alternatenames":["Canton"]},
             {"country":"US","name":"Canton","_id":5,"coord":{"lon":-83.48,"lat":42.31},"population":86825},
             {"country":"SL","name":"Saint Georgetown","_id":6,"coord":{"lon":-13.0,"lat":8.0},"population":9000}]
            """.utf8)).bytes)
        func top(_ query: String, countries: Set<String>? = nil, typos: TypoTolerance = .automatic) throws -> [String] {
            try index.search(query, matching: .words, order: .population, limit: 10, typos: typos, countries: countries).map {
                $0.name + ($0.matchedAlternateName.map { " [\($0)]" } ?? "")
            }
        }
        // Before: Freetown (a tenth of 802,639: 80,263) first. Now a hundredth, 8,026: after
        // Saint-Georges (31,173) and Saint Georgetown (9,000) too.
        #expect(try top("saint george") == ["Saint George", "Saint-Georges", "Saint Georgetown", "Freetown [Saint George]"])
        #expect(try top("st george") == ["Saint George", "Saint-Georges", "Saint Georgetown", "Freetown [Saint George]"])
        // The name decides, not the query: a prefix of it, and in exact word mode too.
        #expect(try top("saint geo", typos: .none) == ["Saint George", "Saint-Georges", "Saint Georgetown", "Freetown [Saint George]"])
        // Wherever the city named is: restricted to Sierra Leone, Saint George, UT is not in
        // the page, and Freetown still weighs a hundredth (below Saint Georgetown's 9,000).
        let restricted = try index.search("saint george", matching: .words, order: .population, limit: 10, typos: .automatic,
                                          countries: ["SL"])
        #expect(restricted.map(\.id) == [6, 2])
        #expect(restricted.map(\.overshadowing) == [nil, .namesAnotherCity])
        // Canton has 0.54% of Guangzhou's people: under a hundredth, so "Canton" stays Guangzhou's.
        let canton = try index.search("canton", matching: .words, order: .population, limit: 10, typos: .automatic)
        #expect(canton.map(\.id) == [4, 5])
        #expect(canton.map(\.overshadowing) == [nil, nil])
    }

    @Test("pages of every size are prefixes of one order; counts, other modes and orders unchanged")
    func pagesAndModes() throws {
        let all = try top("paris", limit: 100)
        for limit in 1 ... all.count {
            // The first two matches decide one place only (the district moves): a longer run is searched.
            #expect(try top("paris", limit: limit) == Array(all.prefix(limit)), "limit \(limit)")
        }
        #expect(try Self.index.search("paris", matching: .words, order: .population, limit: 1).totalCount == 4)
        #expect(try top("paris", matching: .prefix) == ["Paris", "Paris 15 Vaugirard", "Paris Nord", "Paris"])
        #expect(try top("new york", order: .alphabetical) == ["Jakarta [New York Van Java]", "New York City", "New York Mills"])
        #expect(try top("paris", order: .alphabetical) == ["Paris", "Paris", "Paris 15 Vaugirard", "Paris Nord"])
    }

    @Test("the search reports each match's mark")
    func marks() throws {
        let matches = try Self.index.search("paris", matching: .words, order: .population, limit: 10, typos: .automatic)
        #expect(matches.map { $0.overshadowing } == [nil, nil, nil, .district])
        let wien = try Self.index.search("wien", matching: .words, order: .population, limit: 10, typos: .automatic)
        #expect(wien.map { $0.overshadowing } == [nil, .forgivenBesideExactName])
        let bogata = try Self.index.search("bogata", matching: .words, order: .population, limit: 10, typos: .automatic)
        #expect(bogata.map { $0.overshadowing } == [.forgivenBesideSmallerExactName, nil])
    }
}
