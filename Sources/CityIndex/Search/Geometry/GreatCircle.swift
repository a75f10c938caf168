// GreatCircle.swift: distances on a spherical Earth, and the least distance from a point to a box.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle distances on a sphere of the Earth's mean radius, by the haversine formula.
///
/// Searches compare *haversines* (`h = hav(Δφ) + cos φ₁ · cos φ₂ · hav(Δλ)`, with
/// `hav(θ) = sin²(θ / 2)`), which grow with the distance, and turn only the results into
/// metres. `hav` of a longitude difference is the same for Δλ and Δλ ± 360°, so nothing
/// special happens at the antimeridian.
enum GreatCircle {
    /// The Earth's mean radius (IUGG), in metres.
    static let earthRadius = 6_371_008.8

    @inline(__always)
    static func cosine(_ radians: Double) -> Double { cos(radians) }

    @inline(__always)
    static func tangent(_ radians: Double) -> Double { tan(radians) }

    /// Millionths of a degree (a `CITY` coordinate) in radians.
    @inline(__always)
    static func radians(_ microdegrees: Int32) -> Double { Double(microdegrees) * (.pi / 180_000_000) }

    @inline(__always)
    static func hav(_ radians: Double) -> Double {
        let half = sin(radians / 2)
        return half * half
    }

    /// The haversine between a point (latitude `latitude`, its cosine `cosLatitude`) and
    /// (`otherLatitude`, a longitude `longitudeDifference` away); all in radians.
    @inline(__always)
    static func haversine(latitude: Double, cosLatitude: Double, otherLatitude: Double, longitudeDifference: Double) -> Double {
        hav(latitude - otherLatitude) + cosLatitude * cos(otherLatitude) * hav(longitudeDifference)
    }

    /// Metres from a haversine.
    @inline(__always)
    static func meters(fromHaversine h: Double) -> Double { 2 * earthRadius * asin(min(1, sqrt(max(0, h)))) }

    /// The haversine of a distance in metres (≥ 1 for half the circumference or more).
    static func haversine(ofMeters meters: Double) -> Double {
        let angle = meters / earthRadius
        return angle >= .pi ? 1 : hav(angle)
    }

    /// A lower bound, without trigonometry, of the haversine between two points whose
    /// latitudes differ by `latitudeDifference` (radians), whatever their longitudes:
    /// hav(Δφ) = sin²(Δφ/2) ≥ (a − a³/6)² for a = |Δφ|/2 ≤ π/2, lowered by a relative 10⁻¹²
    /// so that rounding never lifts it above the computed haversine.
    @inline(__always)
    static func leastHaversine(latitudeDifference: Double) -> Double {
        let a = abs(latitudeDifference) / 2
        let sine = a - a * a * a / 6
        return sine * sine * (1 - 1e-12)
    }

    /// The least haversine between a point and any point of the box `south ... north` ×
    /// `west ... east` (radians; `west ≤ east`, both in −π … π): a lower bound for every city
    /// in the box.
    ///
    /// When the point's longitude is inside the box's, the nearest point of the box is on the
    /// point's meridian. Otherwise it lies on the nearer of the two edge meridians (the one
    /// with the smaller `hav(Δλ)`: going round either way passes an edge), where the distance
    /// along the meridian has one minimum, at the latitude φ* with `tan φ* = tan φ / cos Δλ`
    /// (the pole on the point's side when `cos Δλ ≤ 0`): the least is at φ* clamped into the
    /// box's latitudes.
    static func leastHaversine(latitude: Double, longitude: Double, cosLatitude: Double, tanLatitude: Double,
                               south: Double, north: Double, west: Double, east: Double) -> Double {
        if longitude >= west && longitude <= east {
            if latitude < south { return hav(south - latitude) }
            if latitude > north { return hav(latitude - north) }
            return 0
        }
        let havWest = hav(longitude - west), havEast = hav(longitude - east)
        let havDifference = min(havWest, havEast)
        let cosDifference = 1 - 2 * havDifference
        let vertex = cosDifference <= 0 ? (latitude >= 0 ? Double.pi / 2 : -Double.pi / 2) : atan(tanLatitude / cosDifference)
        let nearest = min(max(vertex, south), north)
        return hav(latitude - nearest) + cosLatitude * cos(nearest) * havDifference
    }
}
