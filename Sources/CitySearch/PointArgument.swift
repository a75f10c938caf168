// PointArgument.swift: "LAT,LON" on the command line.
import CityIndex

enum PointArgument {
    /// "48.8566,2.3522" (spaces allowed around the comma) as a coordinate; `nil` unless two
    /// finite decimal numbers in range.
    static func parse(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        return try? Coordinate(latitude: latitude, longitude: longitude)
    }
}
