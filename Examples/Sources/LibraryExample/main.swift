import CityIndex

let index = try CityIndex(path: "cities.cidx")   // maps the file: O(1) checks, nothing parsed
let matches = try index.search("san jo")          // SEARCH.md order; allocates nothing
print(matches.count, matches[0].name, matches[0].highlightUTF16Range)   // count and [i] are O(1)

// The search box's options: words, the most populous first, typos forgiven, the first 20.
for match in try index.search("pheonix", options: .recommended).prefix(3) {
    print(match.city.label, match.editCount, match.matchedAlternateName ?? "-")
}
let eiffelTower = try Coordinate(latitude: 48.8584, longitude: 2.2945)
for nearby in try index.nearest(to: eiffelTower, limit: 2, minimumPopulation: 1_000_000) {
    print(nearby.city.label, Int(nearby.distanceMeters))   // O(log n + k)
}
print(index.city(id: 2761369)?.label ?? "no such id")    // O(log n)
try index.verify()                                        // the whole file: checksum and invariants
