// IndexBuildError.swift: why IndexBuilder produced no index.
import CityIndex
import CityIndexArtifacts
import Foundation

/// Why a build failed: the one error type `IndexBuilder`'s entry points throw.
public enum IndexBuildError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The city list is malformed or breaks a rule; says line:column and the record's `_id`.
    case invalidCityList(CityListError)
    /// The places file (`PlaceNames`) is malformed or breaks a rule; says its path (when read
    /// from a file) and line:column.
    case invalidPlaceNames(path: String?, CityListError)
    /// The input could not be opened, read or decompressed, or is larger than allowed.
    case input(InputError)
    /// The index could not be written (nothing was written at the path).
    case cannotWrite(path: String, reason: String, isNotReplaceable: Bool)
    /// The list is too large for one index: a section would pass a 32-bit limit (FORMAT.md §10).
    case formatLimitExceeded(String)
    /// The builder produced a file its own reader rejects: a bug in this package, please report it.
    case internalInconsistency(String)

    public var description: String {
        switch self {
        case .invalidCityList(let error): return error.description
        case .invalidPlaceNames(let path, let error): return "\(path ?? "places"):\(error.description)"
        case .input(let error): return error.description
        case .cannotWrite(let path, let reason, _): return "cannot write '\(path)': \(reason)"
        case .formatLimitExceeded(let detail): return detail
        case .internalInconsistency(let detail): return "internal error (please report it): \(detail)"
        }
    }

    public var errorDescription: String? { description }

    /// Wraps whatever the build steps threw.
    static func wrapping(_ error: any Error) -> IndexBuildError {
        switch error {
        case let error as IndexBuildError: return error
        case let error as CityListError: return .invalidCityList(error)
        case let error as InputError: return .input(error)
        case let error as AtomicFileWriter.WriteError:
            return .cannotWrite(path: error.path, reason: error.reason, isNotReplaceable: error.isNotReplaceable)
        default: return .internalInconsistency("\(error)")
        }
    }
}
