import CitySearchKit
import Foundation

// A verified local copy of a published index, refreshed when older than a day.
let store = IndexStore(source: .url(URL(string: "https://example.com/cities.cidx.xz")!),
                       cacheDirectory: cachesURL, freshnessWindow: .seconds(86_400),
                       expectedSHA256: "9f2c…")   // the 64 hex digits `shasum -a 256` prints
let loaded = try await store.load()            // .fresh, .refreshed or .stale(reason:)
let favorites = try FavoritesStore(fileURL: documentsURL.appending(path: "favorites.json"))
let session = CitySearchSession(index: loaded.index, favorites: favorites,
                                configuration: .recommended)   // words, population, typos forgiven

// On every keystroke:
do throws(CitySearchError) {
    let results = try await session.search(queryFragment: text)   // random access, count O(1)
    show(results.count, results.prefix(50).map { ($0.highlightedName(), $0.city.coordinate.degreesMinutesSeconds) })
} catch .superseded, .sameAsPreviousQuery {
    // a newer keystroke will deliver, or the shown results are still right
} catch {
    showHint(error)   // .tooFewCharacters(found:minimum:), .cancelled, .index(IndexFileError)
}
try favorites.toggle(cityID); await session.setFavoritesOnly(true)
