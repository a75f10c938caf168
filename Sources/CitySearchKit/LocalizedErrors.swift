// LocalizedErrors.swift: the package's errors as LocalizedError, so that what a UI shows
// (`error.localizedDescription`, SwiftUI's alerts) is the error's own sentence, not
// "The operation could not be completed. (… error 0.)".
import CityIndex
import Foundation

extension IndexFileError: LocalizedError {
    /// The error's `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension CitySearchError: CustomStringConvertible, LocalizedError {
    /// Why nothing was delivered, in a sentence a UI can show.
    public var description: String {
        switch self {
        case .superseded: return "a newer search replaced this one"
        case .cancelled: return "the search was cancelled"
        case .tooFewCharacters(let found, let minimum):
            return "type at least \(minimum) characters (\(found) so far)"
        case .sameAsPreviousQuery(let query): return "the results for \"\(query)\" are already shown"
        case .index(let error): return error.description
        }
    }

    /// The error's `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension IndexStore.RefreshError: LocalizedError {
    /// The error's `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension IndexStore.StoreError: LocalizedError {
    /// The error's `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension FavoritesStore.StoreError: LocalizedError {
    /// The error's `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension Coordinate.ValidationError: LocalizedError {
    /// The error's `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
