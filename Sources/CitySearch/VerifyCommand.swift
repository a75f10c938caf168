// VerifyCommand.swift: `city-search verify`, a verdict on the whole file.
import ArgumentParser
import CityIndex

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the whole index (checksum and every invariant, FORMAT.md) and print one line: valid (status 0) or what is wrong (status 65).",
        discussion: "Reads every byte of the file: O(file size). Runs no search.")

    @OptionGroup var indexOptions: IndexOptions

    func run() async throws {
        try await CommandFailure.reporting {
            // Damage found at open (header, sections, nodes) is a verdict too; a file that
            // cannot be opened at all is not (status 66).
            let index = try indexOptions.open(namingInvalid: true)
            do {
                try index.verify()
            } catch {
                throw CommandFailure("\(indexOptions.index): invalid: \(error)", status: 65)
            }
            print("\(indexOptions.index): valid (format \(index.formatVersion), \(index.cityCount) cities, \(index.fileByteCount) bytes, checksum and invariants checked)")
        }
    }
}
