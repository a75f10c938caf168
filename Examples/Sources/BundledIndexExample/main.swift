import CityIndex
import CitySearchKit   // CityIndex(contentsOf: URL)
import Foundation

// CityIndexPlugin compiled this target's cities.json into cities.cidx, a bundled resource.
let index = try CityIndex(contentsOf: Bundle.module.url(forResource: "cities", withExtension: "cidx")!)
let matches: CityMatches = try index.search(CommandLine.arguments.dropFirst().joined(separator: " "))
print("\(index.cityCount) cities bundled; \(matches.count) match: " + matches.map { $0.city.name }.joined(separator: ", "))
