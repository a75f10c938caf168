// Coordinate+Formatting.swift: a coordinate as a search box shows it.
import CityIndex

extension Coordinate {
    /// A distance as a search box shows it: "350 m", "4.0 km", "266 km", "1,204 km".
    public static func formattedDistance(meters: Double) -> String {
        guard meters.isFinite, meters >= 0 else { return "-" }
        if meters < 1_000 { return "\(Int(meters.rounded())) m" }
        if meters < 10_000 {
            let tenths = Int((meters / 100).rounded())
            return "\(tenths / 10).\(tenths % 10) km"
        }
        var digits = String(Int((meters / 1_000).rounded()))
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " km"
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
