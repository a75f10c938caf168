import CityIndex
import CitySearchKit   // CityIndex(contentsOf: URL)
import Foundation

// cities.json (or cities.json.xz) sits in this target; CityIndexPlugin compiled it into
// cities.cidx at build time and bundled it as a resource.
guard let url = Bundle.module.url(forResource: "cities", withExtension: "cidx") else {
    fatalError("cities.cidx is not in the bundle: CityIndexPlugin did not run")
}
let index = try CityIndex(contentsOf: url)
let matches: CityMatches = try index.search(CommandLine.arguments.dropFirst().joined(separator: " "))
print("\(index.cityCount) cities bundled; \(matches.count) match: " + matches.map { $0.city.name }.joined(separator: ", "))
