// CityCommand.swift: `city-search city ID`, one city.
import ArgumentParser
import CityIndex

struct CityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city", abstract: "Print the city with this id (status 1 when the index has none).")

    @OptionGroup var indexOptions: IndexOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The city's id (the input's _id).")
    var id: Int

    func run() async throws {
        try await CommandFailure.reporting {
            let index = try indexOptions.open()
            guard let city = index.city(id: id) else { throw CommandFailure("\(indexOptions.index): no city has id \(id)", status: 1) }
            print(ResultFormatting.city(city, format: output.chosen))
        }
    }
}
