// NearestTests.swift: nearest(to:) agrees with a brute force over every city of Data/.
import CityIndex
import CityIndexBuilder
import CityIndexTestSupport
import Foundation
import Testing

@Suite("Nearest cities (reverse geocoding)")
struct NearestTests {
    /// Each city of the dataset as a unit vector: the brute force ranks by dot product (no
    /// haversine, no tree), then measures the chosen ones with `NaiveNearest.distance`.
    struct BruteForce {
        let cities: [ReferenceCity]
        let vectors: [(x: Double, y: Double, z: Double)]

        init(cities: [ReferenceCity]) {
            self.cities = cities
            vectors = cities.map { Self.vector(latitude: $0.coord.lat, longitude: $0.coord.lon) }
        }

        static func vector(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
            let (φ, λ) = (latitude * .pi / 180, longitude * .pi / 180)
            return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
        }

        /// The `k` nearest cities passing `include`, nearest first, with their distances.
        func nearest(latitude: Double, longitude: Double, k: Int,
                     include: (ReferenceCity) -> Bool = { _ in true }) -> [(city: ReferenceCity, meters: Double)] {
            let point = Self.vector(latitude: latitude, longitude: longitude)
            var best: [(dot: Double, index: Int)] = []   // largest dot first
            for (index, vector) in vectors.enumerated() {
                let dot = vector.x * point.x + vector.y * point.y + vector.z * point.z
                if best.count == k, dot <= best[k - 1].dot { continue }
                guard include(cities[index]) else { continue }
                let position = best.firstIndex { $0.dot < dot } ?? best.count
                best.insert((dot, index), at: position)
                if best.count > k { best.removeLast() }
            }
            return best.map { entry in
                let city = cities[entry.index]
                return (city, NaiveNearest.distance(latitude: latitude, longitude: longitude, toLatitude: city.coord.lat,
                                                    longitude: city.coord.lon))
            }.sorted { $0.meters < $1.meters }
        }
    }

    /// Seeded points spread over the sphere, plus the hard places: the antimeridian, near
    /// and at the poles, and cities' own coordinates (distance 0, ties).
    static func points(count: Int, seed: UInt64, cities: [ReferenceCity]) -> [(latitude: Double, longitude: Double)] {
        var generator = SeededGenerator(seed: seed)
        var points: [(Double, Double)] = []
        for _ in 0 ..< count {
            let latitude = asin(Double.random(in: -1 ... 1, using: &generator)) * 180 / .pi
            points.append((latitude, Double.random(in: -180 ... 180, using: &generator)))
        }
        for latitude in stride(from: -80.0, through: 80, by: 20) {
            points += [(latitude, 180), (latitude, -180), (latitude, 179.999), (latitude, -179.999)]
        }
        points += [(89.9, 0), (-89.9, 0), (90, 45), (-90, -120), (89.9, 179.9), (-89.9, -179.9), (0, 0)]
        for _ in 0 ..< count / 20 {
            let city = cities[Int.random(in: 0 ..< cities.count, using: &generator)]
            points.append((city.coord.lat, city.coord.lon))
        }
        return points
    }

    /// The index's answer has the reference's distances, position by position, and each city
    /// it names is at the distance it reports.
    static func expectAgreement(_ found: [NearbyCity], _ expected: [(city: ReferenceCity, meters: Double)],
                                byID cities: [Int: ReferenceCity], point: (latitude: Double, longitude: Double),
                                comment: Comment) {
        #expect(found.count == expected.count, comment)
        #expect(Set(found.map(\.city.id)).count == found.count, comment)
        for (position, (nearby, reference)) in zip(found, expected).enumerated() {
            let tolerance = 0.5 + reference.meters * 1e-9
            #expect(abs(nearby.distanceMeters - reference.meters) <= tolerance, "\(comment) position \(position)")
            if let city = cities[nearby.city.id] {
                let own = NaiveNearest.distance(latitude: point.latitude, longitude: point.longitude,
                                                toLatitude: city.coord.lat, longitude: city.coord.lon)
                #expect(abs(nearby.distanceMeters - own) <= tolerance, "\(comment) id \(nearby.city.id)")
            } else {
                Issue.record("\(comment): id \(nearby.city.id) is no city of the list")
            }
        }
        for pair in zip(found, found.dropFirst()) {
            #expect(pair.0.distanceMeters <= pair.1.distanceMeters, comment)
        }
    }

    @Test("on Data/: 2,000 seeded points and the antimeridian, the poles and cities' own places, k = 1 and 10, agree with the brute force")
    func agreesWithBruteForce() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let brute = BruteForce(cities: dataset.cities)
        let byID = Dictionary(uniqueKeysWithValues: dataset.cities.map { ($0.id, $0) })
        for (number, point) in Self.points(count: 2_000, seed: 42, cities: dataset.cities).enumerated() {
            let k = number % 2 == 0 ? 1 : 10
            let coordinate = try Coordinate(latitude: point.latitude, longitude: point.longitude)
            let found = try dataset.index.nearest(to: coordinate, limit: k)
            let expected = brute.nearest(latitude: point.latitude, longitude: point.longitude, k: k)
            Self.expectAgreement(found, expected, byID: byID, point: point, comment: "\(point) k \(k)")
        }
    }

    @Test("on Data/: k up to 1,000, within a radius, a minimum population and countries agree with the brute force")
    func largeLimitsAndRestrictions() throws {
        let dataset = try Fixtures.defaultDataset.get()
        let brute = BruteForce(cities: dataset.cities)
        let byID = Dictionary(uniqueKeysWithValues: dataset.cities.map { ($0.id, $0) })
        for (number, point) in Self.points(count: 60, seed: 7, cities: dataset.cities).enumerated() {
            let coordinate = try Coordinate(latitude: point.latitude, longitude: point.longitude)
            let k = [100, 1_000, 250][number % 3]
            Self.expectAgreement(try dataset.index.nearest(to: coordinate, limit: k),
                                 brute.nearest(latitude: point.latitude, longitude: point.longitude, k: k),
                                 byID: byID, point: point, comment: "\(point) k \(k)")

            // Within: every city up to the radius (cities within a metre of it may go either way).
            let radius = [5_000.0, 50_000, 300_000][number % 3]
            let within = try dataset.index.nearest(to: coordinate, limit: .max, within: radius)
            let all = brute.nearest(latitude: point.latitude, longitude: point.longitude, k: max(within.count + 50, 50))
            let surely = all.filter { $0.meters <= radius - 1 }.count, maybe = all.filter { $0.meters <= radius + 1 }.count
            #expect(within.count >= surely && within.count <= maybe, "\(point) within \(radius): \(within.count)")
            #expect(within.allSatisfy { $0.distanceMeters <= radius + 1 }, "\(point) within \(radius)")

            let population = [1_000, 100_000, 1_000_000][number % 3]
            Self.expectAgreement(try dataset.index.nearest(to: coordinate, limit: 10, minimumPopulation: population),
                                 brute.nearest(latitude: point.latitude, longitude: point.longitude, k: 10) {
                                     ($0.population ?? 0) >= population
                                 },
                                 byID: byID, point: point, comment: "\(point) population \(population)")

            let countries: Set<String> = number % 2 == 0 ? ["FR", "NZ"] : ["US"]
            Self.expectAgreement(try dataset.index.nearest(to: coordinate, limit: 5, countries: Set(countries.map { $0.lowercased() })),
                                 brute.nearest(latitude: point.latitude, longitude: point.longitude, k: 5) {
                                     countries.contains($0.country)
                                 },
                                 byID: byID, point: point, comment: "\(point) countries \(countries)")
        }
    }

    @Test("known places: the Eiffel Tower is in Paris, Times Square in New York by population, across the antimeridian from Fiji")
    func knownPlaces() throws {
        let index = try Fixtures.defaultDataset.get().index
        let paris = try index.nearest(to: Coordinate(latitude: 48.8584, longitude: 2.2945), limit: 1, minimumPopulation: 1_000_000)
        #expect(paris.first?.city.name == "Paris" && paris.first?.city.countryCode == "FR")
        let newYork = try index.nearest(to: Coordinate(latitude: 40.758, longitude: -73.9855), limit: 1, minimumPopulation: 5_000_000)
        #expect(newYork.first?.city.name == "New York City")
        // Taveuni (Fiji) straddles 180°: a point just west of the line finds cities east of it too.
        let east = try index.nearest(to: Coordinate(latitude: -16.8, longitude: 179.999), limit: 20)
        #expect(east.contains { $0.city.longitude < 0 } && east.contains { $0.city.longitude > 0 })
        #expect(try index.nearest(to: Coordinate(latitude: 0, longitude: 0), limit: 0).isEmpty)
        #expect(try index.nearest(to: Coordinate(latitude: 0, longitude: 0), limit: 5, within: 0).isEmpty)
    }

    @Test("a format 7 file (no GEOK) says so; the small index answers exactly")
    func smallIndexAndMissingSection() throws {
        let index = Fixtures.smallIndex
        let found = try index.nearest(to: Coordinate(latitude: 48.2, longitude: 11.3), limit: 3)
        #expect(found.map(\.city.name) == ["München", "Munchen", "Zürich"])
        // The section's tag renamed to one no reader knows (not required): as if it were absent.
        var bytes = Fixtures.smallIndexBytes
        let entry = try #require((0 ..< Int(bytes[28])).first { Array(bytes[32 + 24 * $0 ..< 36 + 24 * $0]) == Array("GEOK".utf8) })
        bytes[35 + 24 * entry] = UInt8(ascii: "X")
        let withoutSpatial = try CityIndex(bytes: bytes)
        #expect(!withoutSpatial.hasSpatialIndex)
        #expect(throws: IndexFileError.missingSection(.spatialIndex)) {
            try withoutSpatial.nearest(to: Coordinate(latitude: 0, longitude: 0))
        }
    }

    @Test("verify() finds a GEOK split that is not its median's coordinate, and a value in a slot of no node")
    func verifyFindsDamagedSplits() throws {
        // 34 cities: a root of 34 (its median at position 16), a left child of 16 (a leaf) and a
        // right one of 17 (split again): three split slots, slot 1 no node's.
        let cities: [String] = (0 ..< 34).map { (number: Int) -> String in
            let coordinate = "{\"lon\":\(number % 6),\"lat\":\(number / 6)}"
            return "{\"country\":\"FR\",\"name\":\"City \(number)\",\"_id\":\(number + 1),\"coord\":" + coordinate + "}"
        }
        let bytes = try IndexBuilder().build(jsonBytes: Array(("[" + cities.joined(separator: ",") + "]").utf8)).bytes
        try CityIndex(bytes: bytes).verify()
        let section = Fixtures.section("GEOK", in: bytes)
        let splitBytes = bytes[section.lowerBound + 4 ..< section.lowerBound + 8]
        #expect(Array(splitBytes) == [3, 0, 0, 0])
        func verifyFails(_ change: (inout [UInt8]) -> Void, _ what: Comment, with expected: InvariantViolation) throws {
            var damaged = bytes
            change(&damaged)
            let index = try CityIndex(bytes: Fixtures.restamped(damaged))
            #expect(throws: IndexFileError.invariantViolated(expected), what) { try index.verify() }
        }
        // The root's split (the median longitude) moved by one microdegree.
        try verifyFails({ $0[section.lowerBound + 8] ^= 1 }, "a changed split", with: .spatialIndexWrong(position: 16))
        try verifyFails({ $0[section.lowerBound + 8 + 4] = 7 }, "a value in a slot of no node", with: .spatialSplitWrong(node: 1))
    }
}

