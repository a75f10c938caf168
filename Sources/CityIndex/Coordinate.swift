// Coordinate.swift: a validated latitude and longitude, what location searches take.

/// A point on Earth: latitude in -90...90 and longitude in -180...180 degrees, both finite.
/// The only way to make one is the validating initializer, so every value is valid.
public struct Coordinate: Hashable, Sendable {
    public let latitude: Double
    public let longitude: Double

    /// Why a latitude or longitude was refused; `description` is a sentence for users.
    public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The latitude is not a number in −90…90.
        case latitudeOutOfRange(Double)
        /// The longitude is not a number in −180…180.
        case longitudeOutOfRange(Double)

        /// "Latitude must be between -90 and 90".
        public var description: String {
            switch self {
            case .latitudeOutOfRange: return "Latitude must be between -90 and 90"
            case .longitudeOutOfRange: return "Longitude must be between -180 and 180"
            }
        }
    }

    /// Validates both values (NaN and infinities are out of range).
    public init(latitude: Double, longitude: Double) throws(ValidationError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension Coordinate {
    /// The great-circle distance to `other` in metres, on a sphere of the Earth's mean radius
    /// (6,371,008.8 m; the haversine formula, as `CityIndex.nearest` measures). O(1).
    public func distanceMeters(to other: Coordinate) -> Double {
        let (φ1, φ2) = (latitude * .pi / 180, other.latitude * .pi / 180)
        let h = GreatCircle.haversine(latitude: φ1, cosLatitude: GreatCircle.cosine(φ1), otherLatitude: φ2,
                                      longitudeDifference: (longitude - other.longitude) * .pi / 180)
        return GreatCircle.meters(fromHaversine: h)
    }
}

extension City {
    /// The city's coordinate (records are validated when built, so this never fails on an
    /// index that passes `verify()`; a damaged record is clamped into range).
    public var coordinate: Coordinate {
        (try? Coordinate(latitude: latitude, longitude: longitude))
            ?? (try! Coordinate(latitude: min(90, max(-90, latitude)), longitude: min(180, max(-180, longitude))))
    }
}
