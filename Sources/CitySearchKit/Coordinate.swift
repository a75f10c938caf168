// Coordinate.swift: a validated latitude and longitude.

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

    /// Latitude with two decimals, for display: "37.77".
    public var formattedLatitude: String { Self.twoDecimals(latitude) }

    /// Longitude with two decimals: "-122.42".
    public var formattedLongitude: String { Self.twoDecimals(longitude) }

    /// Degrees, minutes and whole seconds with hemisphere: "37°46′12″N, 122°25′10″W".
    public var degreesMinutesSeconds: String {
        Self.sexagesimal(latitude, positive: "N", negative: "S") + ", " + Self.sexagesimal(longitude, positive: "E", negative: "W")
    }

    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    static func sexagesimal(_ value: Double, positive: String, negative: String) -> String {
        let totalSeconds = Int((abs(value) * 3600).rounded())
        let degrees = totalSeconds / 3600, minutes = totalSeconds % 3600 / 60, seconds = totalSeconds % 60
        return "\(degrees)°\(minutes)′\(seconds)″" + (value < 0 && totalSeconds > 0 ? negative : positive)
    }
}

import CityIndex

extension City {
    /// The city's coordinate (records are validated when built, so this never fails on an
    /// index that passes `verify()`; a damaged record is clamped into range).
    public var coordinate: Coordinate {
        (try? Coordinate(latitude: latitude, longitude: longitude))
            ?? (try! Coordinate(latitude: min(90, max(-90, latitude)), longitude: min(180, max(-180, longitude))))
    }
}
