// CityIndex+Nearest.swift: nearest(to:limit:within:minimumPopulation:), reverse geocoding.

/// A city and how far it is from the point a search was given.
public struct NearbyCity: Sendable {
    public let city: City
    /// The great-circle distance on a sphere of the Earth's mean radius (6,371,008.8 m), in metres.
    public let distanceMeters: Double
}

extension CityIndex {
    /// Whether the file has a spatial index (`GEOK`, format 8): `nearest` needs it.
    public var hasSpatialIndex: Bool { contents.spatialIndex != nil }

    /// The `limit` cities nearest to `point` by great-circle distance, nearest first (ties by
    /// search order), each with its distance.
    ///
    /// ```swift
    /// let here = try Coordinate(latitude: 48.8566, longitude: 2.3522)
    /// let city = try index.nearest(to: here).first   // Paris, 0.3 km
    /// ```
    /// Right across the antimeridian and at the poles: distances are haversines on a sphere,
    /// which wrap in longitude.
    ///
    /// - Parameters:
    ///   - point: where to measure from.
    ///   - limit: how many cities, at most.
    ///   - within: only cities at most this many metres away (`nil`: any distance).
    ///   - minimumPopulation: only cities with at least this population (unknown counts as 0):
    ///     a tap in a city's suburbs then names the city rather than the suburb.
    ///   - countries: only cities of these countries (two-letter codes; `nil`: all).
    /// - Complexity: O(log *n* + *k*) typical for *k* = `limit` (a best-first search of the
    ///   k-d tree, `NearestSearch`); allocates its result, and its queue only when that passes
    ///   the stack's room (thousands of items). With `minimumPopulation` or `countries` the
    ///   cities skipped add to the work.
    /// - Throws: `IndexFileError.missingSection(.spatialIndex)` for a file without `GEOK` (a
    ///   format 7 file: rebuild it).
    public func nearest(to point: Coordinate, limit: Int = 1, within: Double? = nil,
                        minimumPopulation: Int = 0, countries: Set<String>? = nil) throws(IndexFileError) -> [NearbyCity] {
        precondition(limit >= 0, "limit must not be negative")
        guard let spatial = contents.spatialIndex else { throw .missingSection(.spatialIndex) }
        let search = NearestSearch(contents: contents, spatial: spatial, origin: LocationOrigin(point),
                                   largestHaversine: within.map { GreatCircle.haversine(ofMeters: max(0, $0)) } ?? 2,
                                   minimumPopulation: UInt32(clamping: max(0, minimumPopulation)),
                                   countries: countries.map { Set($0.compactMap(Self.countryCodeValue)) })
        return search.run(limit: limit) { rank, haversine in
            NearbyCity(city: City(contents: contents, rank: rank), distanceMeters: GreatCircle.meters(fromHaversine: haversine))
        }
    }
}
