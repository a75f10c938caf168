// LocationOrigin.swift: a point ready to measure haversines to cities, and the least one to a box.

/// A point, in radians, ready to measure haversines to cities (searches from a location,
/// nearest cities).
struct LocationOrigin {
    let latitude: Double, longitude: Double, cosLatitude: Double, tanLatitude: Double

    init(_ point: Coordinate) {
        latitude = point.latitude * .pi / 180
        longitude = point.longitude * .pi / 180
        cosLatitude = GreatCircle.cosine(latitude)
        tanLatitude = GreatCircle.tangent(latitude)
    }

    /// The least haversine from the point to any point of the box `south ... north` ×
    /// `west ... east` (radians), or a lower bound of it above `bound` when one without
    /// trigonometry (its latitudes alone) already is: then nothing in the box is wanted.
    @inline(__always)
    func leastHaversine(south: Double, north: Double, west: Double, east: Double, unlessAbove bound: Double) -> Double {
        if latitude < south || latitude > north {
            let byLatitude = GreatCircle.leastHaversine(latitudeDifference: latitude < south ? south - latitude : latitude - north)
            if byLatitude > bound { return byLatitude }
        }
        return GreatCircle.leastHaversine(latitude: latitude, longitude: longitude, cosLatitude: cosLatitude, tanLatitude: tanLatitude,
                                          south: south, north: north, west: west, east: east)
    }

    /// The haversine to the city at `rank`. O(1).
    func haversine(to rank: Int, in contents: IndexContents) -> Double {
        let cityLatitude = GreatCircle.radians(contents.records.latitudeMicrodegrees(ofRank: rank))
        let cityLongitude = GreatCircle.radians(contents.records.longitudeMicrodegrees(ofRank: rank))
        return GreatCircle.haversine(latitude: latitude, cosLatitude: cosLatitude, otherLatitude: cityLatitude,
                                     longitudeDifference: longitude - cityLongitude)
    }
}
