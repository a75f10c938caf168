// BuildIndex.swift: the build-index command.
import ArgumentParser
import CityIndex
import CityIndexArtifacts
import CityIndexBuilder
import Foundation

@main
struct BuildIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build-index",
        abstract: "Compile a cities JSON list into a memory-mappable prefix index.",
        discussion: """
            INPUT is a JSON array of {"country","name","_id","coord":{"lon","lat"}} records, plain, \
            gzip or xz (detected from its first bytes); '-' reads standard input. Without INPUT the \
            project's default dataset is read from Data/cities500.json.xz relative to the current \
            directory (run it from a checkout of the package), or from the path in the \
            CITYINDEX_DEFAULT_DATASET environment variable when that is set.

            Records may carry "region", the code of their first-level region within the \
            country ("TX"). --places names the countries and regions (a JSON file: \
            {"countries":[{"code","code3","name","aliases"}],"regions":[{"country","code","iso",\
            "name","aliases"}]}); without it, a places.json beside INPUT is used (Data/places.json \
            for the default dataset), unless --no-places.

            The index is written to a temporary file and then renamed: a failed run leaves no \
            partial index and any previous file intact. An existing OUTPUT must be a regular \
            file: a symbolic link, directory, FIFO or device is refused (exit 73), never replaced.

            Exit status: 0 success; 64 usage error; 65 invalid input data (malformed JSON or a \
            record that breaks a rule, or a malformed --places file; the message names \
            line:column and the record's _id); \
            66 input cannot be opened; 73 the output path is not a regular file; 74 read, \
            decompression or write error.
            """,
        version: CityIndexRelease.description)

    @Argument(help: "Cities JSON: plain, .gz or .xz; '-' for standard input. Default: ./Data/cities500.json.xz (or $CITYINDEX_DEFAULT_DATASET).",
              completion: .file(extensions: ["json", "gz", "xz"]))
    var input: String?

    @Option(name: .shortAndLong, help: "Where to write the index file.", completion: .file(extensions: ["cidx"]))
    var output: String = "cities.cidx"

    @Option(help: "Write a compressed artifact (gzip or xz) for download instead of a plain, mappable index (IndexStore decompresses and verifies it into its cache).")
    var compress: CompressionChoice?

    @Option(help: ArgumentHelp("Which alternate names to store for word matching: all, latin (names in Latin letters only: a smaller index) or none.", valueName: "all|latin|none"))
    var alternateNames: AlternateNameSelection = .all

    @Option(help: ArgumentHelp("The names of the countries and regions of the cities (plain, .gz or .xz JSON). Default: places.json in INPUT's directory, when there is one.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var places: String?

    @Flag(help: "Store no country or region names (the cities' region codes are kept).")
    var noPlaces = false

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Option(help: "Reject inputs that decompress to more bytes than this.")
    var maxInputBytes: Int = 4 << 30

    @Option(help: ArgumentHelp("About how much memory the build's sorts may use: bytes, or with a K, M or G suffix (binary units). Past it, sorted runs spill to scratch files beside the output and are merged; the index is the same.", valueName: "size"))
    var memoryLimit: ByteSize = ByteSize(byteCount: IndexBuilder().memoryLimit)

    @Option(help: ArgumentHelp("Where to put scratch files (spilled sorted runs, sections in the making; unlinked at once). Default: the output's directory.", valueName: "directory"),
            completion: .directory)
    var scratchDirectory: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    mutating func validate() throws {
        if noPlaces && places != nil { throw ValidationError("--places and --no-places exclude each other.") }
        guard maxInputBytes > 0 else { throw ValidationError("--max-input-bytes must be positive; got \(maxInputBytes).") }
        guard memoryLimit.byteCount >= IndexBuilder.minimumMemoryLimit else {
            throw ValidationError("--memory-limit must be at least 1M; got \(memoryLimit.byteCount) bytes.")
        }
        guard !output.isEmpty, output != "-" else { throw ValidationError("--output needs a file path; got '\(output)'.") }
    }

    mutating func run() throws {
        let inputPath = try input ?? DefaultDataset.path()
        if IndexFileDetection.isIndexFile(inputPath) {
            throw BuildFailure(inputPath: inputPath, underlying: InputIsAnIndex(path: inputPath))
        }
        do {
            try AtomicFileWriter.checkReplaceable(output)
        } catch {
            throw BuildFailure(inputPath: inputPath, underlying: error)
        }
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        var builder = IndexBuilder(maximumInputByteCount: maxInputBytes) { read, total in progress.update(read: read, total: total) }
        builder.alternateNames = alternateNames
        builder.memoryLimit = memoryLimit.byteCount
        builder.scratchDirectory = scratchDirectory
        builder.phaseStarted = { progress.phase($0) }
        do {
            let besideInput = inputPath == "-" || noPlaces ? nil : DefaultDataset.placesPath(besideListAt: inputPath)
            if let placesPath = noPlaces ? nil : places ?? besideInput {
                builder.places = try PlaceNames(contentsOfFile: placesPath)
            }
        } catch {
            throw BuildFailure(inputPath: inputPath, underlying: error)
        }
        do {
            var written: (format: String, byteCount: Int)?
            var summary: BuildSummary
            if let compress {
                // The plain index goes to a file with no name in the scratch directory (built in
                // bounded memory, as without --compress; nothing of it outlives the process,
                // however it ends), then is compressed from it chunk by chunk into the output:
                // the index is never held whole in memory.
                let plain = try Self.namelessFile(in: scratchDirectory ?? IndexBuilder.directory(of: output), for: output)
                defer { close(plain.descriptor) }
                summary = try builder.build(inputPath: inputPath, intoEmptyFile: plain.descriptor, openedBy: plain.path, name: output)
                progress.phase("compressing (\(compress.rawValue))")
                let compressionStart = ContinuousClock.now
                let byteCount = try AtomicFileWriter.write(to: output) { descriptor, _ in
                    try DescriptorWriting.compress(fileAt: plain.path, as: compress.format, into: descriptor, outputName: output)
                }
                written = (compress.rawValue, byteCount)
                // The compression is part of the run: its time is a phase, and in the elapsed time.
                let seconds = (ContinuousClock.now - compressionStart) / .seconds(1)
                summary.phases.append(.init(name: "compressing", seconds: seconds))
                summary.elapsedSeconds += seconds
            } else {
                // Written section by section as they are built: never the whole file in memory.
                summary = try builder.build(inputPath: inputPath, outputPath: output)
            }
            progress.finish()
            if let first = summary.firstControlCharacter, !quiet {
                FileHandle.standardError.write(Data(("build-index: warning: \(inputPath):\(first); \(summary.controlCharacterCount) "
                    + "control character(s) in all, kept as given (city-search prints them as visible escapes)\n").utf8))
            }
            if json {
                print(summary.json(written: written))
            } else if !quiet {
                print("wrote \(output) from \(inputPath)\n" + summary.text)
                if let written { print("compressed:    \(written.byteCount) bytes (\(written.format))") }
            }
        } catch {
            progress.finish()
            throw BuildFailure(inputPath: inputPath, underlying: error)
        }
    }
}

extension BuildIndex {
    /// A new empty file with no name in `directory`, for the plain index that `--compress`
    /// compresses, and a path that opens it while `descriptor` is open.
    static func namelessFile(in directory: String, for output: String) throws -> (descriptor: Int32, path: String) {
        do {
            return try TemporaryFile.createNameless(in: directory, prefix: "." + (output as NSString).lastPathComponent + ".plain-")
        } catch {
            throw AtomicFileWriter.WriteError(path: directory, reason: "cannot create a temporary file: " + error.reason)
        }
    }
}

/// The `--compress` choices.
enum CompressionChoice: String, ExpressibleByArgument, CaseIterable {
    case gzip, xz

    var format: CompressionFormat { self == .gzip ? .gzip : .xz }
}

extension AlternateNameSelection: ExpressibleByArgument {}

/// A size in bytes, written as a number with an optional K, M or G suffix (powers of 1,024;
/// "KiB", "MiB", "GiB" and "KB", "MB", "GB" read the same).
struct ByteSize: ExpressibleByArgument {
    let byteCount: Int

    init(byteCount: Int) { self.byteCount = byteCount }

    init?(argument: String) {
        var text = argument.uppercased()
        for suffix in ["IB", "B"] where text.hasSuffix(suffix) && text.count > suffix.count {
            text.removeLast(suffix.count)
            break
        }
        let shift = ["K": 10, "M": 20, "G": 30, "T": 40][String(text.last ?? " ")]
        if shift != nil { text.removeLast() }
        guard let value = Int(text), value >= 0 else { return nil }
        let (result, overflow) = value.multipliedReportingOverflow(by: 1 << (shift ?? 0))
        guard !overflow else { return nil }
        byteCount = result
    }

    var defaultValueDescription: String {
        byteCount % (1 << 30) == 0 ? "\(byteCount >> 30)G" : byteCount % (1 << 20) == 0 ? "\(byteCount >> 20)M" : "\(byteCount)"
    }
}
