// AppStandIns.swift: what the README's search-box snippet takes from the app around it.
import CitySearchKit
import Foundation

let cachesURL = FileManager.default.temporaryDirectory.appendingPathComponent("CityIndexExample/Caches")
let documentsURL = FileManager.default.temporaryDirectory.appendingPathComponent("CityIndexExample/Documents")
/// The search field's text.
let text = "san jo"
/// The city the user starred.
let cityID = 707860

/// Shows the result count and the rows.
func show(_ count: Int, _ rows: [(AttributedString, String)]) {
    print(count, rows.map { String($0.0.characters) + "  " + $0.1 })
}

/// Shows why there are no new results.
func showHint(_ error: CitySearchError) {
    print(error)
}
