// CitySearchError.swift: why a search(queryFragment:) call delivered no results.
import CityIndex

/// Why a call to `CitySearchSession.search(queryFragment:)` ended without results. Each case
/// tells the UI what to do.
public enum CitySearchError: Error, Equatable, Sendable {
    /// A newer call replaced this one while it waited out the debounce: ignore it, the newer
    /// call delivers.
    case superseded
    /// The calling task was cancelled.
    case cancelled
    /// The query has fewer characters than the session's minimum: keep showing what is shown, perhaps a hint.
    case tooFewCharacters(found: Int, minimum: Int)
    /// The query equals the one whose results were delivered last: the shown results are still right.
    case sameAsPreviousQuery(String)
    /// The index file is damaged.
    case index(IndexFileError)
}
