import CityIndex

let index = try CityIndex(path: "cities.cidx")      // mmap + header checks, O(1) in the city count
let matches = try index.search("san jo")             // O(m), allocates nothing
print(matches.count)                                  // O(1): "398" (the index of Data/)
for match in matches.prefix(20) {                     // matches[i] is O(1): virtualize freely
    print(match.name, match.countryCode, match.latitude, match.longitude,
          match.highlightUTF16Range,                  // 0..<6, like NSRange / MapKit highlight ranges
          match.matchedName[match.highlightRange])    // "San Jo" (the range is in the name that matched)
}
let top = try index.search("wien", matching: .words, order: .population, limit: 10)
print(top.totalCount, top[0].name, top[0].matchedAlternateName ?? "-")   // "23 Vienna Wien"
let forgiving = try index.search("seatle", matching: .words, order: .population, limit: 10, typos: .automatic)
print(forgiving[0].name, forgiving[0].editCount)      // "Seattle 1"
let hurzuf = index.city(id: 707860)                   // by id, O(log n), no scan
print(hurzuf?.label ?? "")                             // "Hurzuf, Avtonomna Respublika Krym, UA" (REGN, CTRY)
let here = try Coordinate(latitude: 48.8584, longitude: 2.2945)
let near = try index.nearest(to: here, limit: 5, within: 10_000)   // O(log n + k): the k-d tree of GEOK
print(near[0].city.label, near[0].distanceMeters)     // "Paris 16 Passy, Île-de-France, FR 1416.0…"
try index.verify()                                    // whole-file checksum and invariants
