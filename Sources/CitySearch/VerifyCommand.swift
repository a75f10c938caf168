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
            let index: CityIndex
            do throws(IndexOpening.Failure) {
                index = try IndexOpening.open(path: indexOptions.index, maximumIndexByteCount: indexOptions.maxInputBytes)
            } catch {
                // Read and found wrong at open (header, sections, nodes): invalid too. A file
                // that cannot be opened at all is no verdict: status 66.
                throw CommandFailure(error.isOpenError ? "\(indexOptions.index): \(error)" : "\(indexOptions.index): invalid: \(error)",
                                     status: error.isOpenError ? 66 : 65)
            }
            do {
                try index.verify()
            } catch {
                throw CommandFailure("\(indexOptions.index): invalid: \(error)", status: 65)
            }
            print("\(indexOptions.index): valid (format \(index.formatVersion), \(index.cityCount) cities, \(index.fileByteCount) bytes, checksum and invariants checked)")
        }
    }
}
