// NaiveNearest.swift: the reference for nearest-city searches: every city's distance, sorted.
import Foundation

/// Distances to every city by the spherical Vincenty formula (an `atan2` of the chord's parts,
/// not the haversine the index uses), sorted by distance, then id: the reference that
/// `CityIndex.nearest` must agree with.
public struct NaiveNearest: Sendable {
    public static let earthRadius = 6_371_008.8
    public let cities: [ReferenceCity]

    public init(cities: [ReferenceCity]) { self.cities = cities }

    /// The great-circle distance in metres between two points given in degrees.
    public static func distance(latitude: Double, longitude: Double, toLatitude: Double, longitude toLongitude: Double) -> Double {
        let (φ1, φ2) = (latitude * .pi / 180, toLatitude * .pi / 180)
        let Δλ = (toLongitude - longitude) * .pi / 180
        let y = hypot(cos(φ2) * sin(Δλ), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ))
        let x = sin(φ1) * sin(φ2) + cos(φ1) * cos(φ2) * cos(Δλ)
        return atan2(y, x) * earthRadius
    }

    /// Every city passing `include` with its distance from the point, nearest first.
    public func sorted(latitude: Double, longitude: Double,
                       include: (ReferenceCity) -> Bool = { _ in true }) -> [(city: ReferenceCity, meters: Double)] {
        cities.filter(include)
            .map { ($0, Self.distance(latitude: latitude, longitude: longitude, toLatitude: $0.coord.lat, longitude: $0.coord.lon)) }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
    }
}
