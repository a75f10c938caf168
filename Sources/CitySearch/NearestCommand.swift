// NearestCommand.swift: `city-search nearest LAT,LON`, the cities nearest a point.
import ArgumentParser
import CityIndex

struct NearestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearest",
        abstract: "List the cities nearest to a point, nearest first (reverse geocoding).",
        discussion: "The point may start with a minus: `city-search nearest -33.87,151.21`.")

    @OptionGroup var indexOptions: IndexOptions
    @OptionGroup var countries: CountryOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Only cities at most this many kilometres away.", valueName: "KM"))
    var within: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Only cities with at least this population.", valueName: "N"))
    var minPopulation: Int = 0

    @Option(parsing: .unconditional, help: "How many cities to print.")
    var limit: Int = 20

    @OptionGroup var output: OutputOptions

    /// The point, taken as given so that a negative latitude is not read as an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The point, in degrees.", valueName: "LAT,LON"))
    var point: [String] = []

    /// The one argument, as a coordinate; a usage error for none, several or one that is not.
    private func parsedPoint() throws -> Coordinate {
        if let unknown = point.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("Unknown option '\(unknown)' for nearest.")
        }
        guard point.count == 1 else {
            throw ValidationError(point.isEmpty ? "nearest needs a point: LAT,LON in degrees, such as 48.8566,2.3522."
                                                : "nearest takes one point, LAT,LON; got \(point.count) arguments.")
        }
        return try coordinate(point[0], option: "nearest")
    }

    func validate() throws {
        _ = try parsedPoint()
        _ = try withinMeters(within)
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more; got \(limit).") }
        guard minPopulation >= 0 else { throw ValidationError("--min-population must be 0 or more; got \(minPopulation).") }
    }

    func run() async throws {
        try await CommandFailure.reporting {
            let index = try indexOptions.open()
            let center = try parsedPoint()
            let radius = try withinMeters(within)
            do throws(IndexFileError) {
                let found = try index.nearest(to: center, limit: limit, within: radius,
                                              minimumPopulation: minPopulation, countries: countries.filter)
                let text = ResultFormatting.nearest(found, to: center, format: output.chosen)
                try index.checkFileUnchanged()
                if !text.isEmpty { print(text) }
            } catch .missingSection(.spatialIndex) {
                throw CommandFailure("\(indexOptions.index): the index has no spatial index (format 7); rebuild it with this version's build-index", status: 65)
            } catch {
                throw CommandFailure("\(indexOptions.index): \(error)", status: 65)
            }
        }
    }
}
