// BuildFailure.swift: one line on stderr and a distinct exit status per kind of failure.
import ArgumentParser
import CityIndexArtifacts
import CityIndexBuilder
import Foundation

/// Turns a build error into one line on standard error and an exit status (sysexits.h).
struct BuildFailure: Error, CustomStringConvertible {
    let inputPath: String
    let underlying: any Error

    var description: String {
        switch underlying {
        case IndexBuildError.input(.inputTooLarge(let limit)):
            return "build-index: \(inputPath) decompresses to " + MaximumInputAdvice(path: inputPath, limit: limit).text
        case IndexBuildError.invalidCityList(let error): return "build-index: \(inputPath):\(error)"
        case let error as CityListError: return "build-index: \(inputPath):\(error)"
        default: return "build-index: \(underlying)"
        }
    }

    var exitCode: ExitCode {
        switch underlying {
        case is CityListError, is InputIsAnIndex, IndexBuildError.invalidCityList, IndexBuildError.invalidPlaceNames: return ExitCode(65)
        case IndexBuildError.input(.cannotOpen): return ExitCode(66)
        case IndexBuildError.input(.inputTooLarge): return ExitCode(65)
        case IndexBuildError.cannotWrite(_, _, isNotReplaceable: true): return ExitCode(73)
        case let error as AtomicFileWriter.WriteError where error.isNotReplaceable: return ExitCode(73)
        default: return ExitCode(74)
        }
    }
}

extension BuildIndex {
    /// Prints a `BuildFailure` as one line and exits with its status; anything else goes to
    /// ArgumentParser (usage errors exit 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as BuildFailure {
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            Foundation.exit(failure.exitCode.rawValue)
        } catch let failure as DatasetNotFound {
            FileHandle.standardError.write(Data(("build-index: \(failure)\n").utf8))
            Foundation.exit(66)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(64)
            }
            exit(withError: error)
        }
    }
}
