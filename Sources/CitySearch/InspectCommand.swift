// InspectCommand.swift: `city-search inspect`, what a file holds.
import ArgumentParser

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect", abstract: "Print the file's format version, city count, checksum state and sections with their sizes.")

    @OptionGroup var indexOptions: IndexOptions

    func run() async throws {
        try await CommandFailure.reporting {
            print(ResultFormatting.inspection(of: try indexOptions.open(), path: indexOptions.index))
        }
    }
}
