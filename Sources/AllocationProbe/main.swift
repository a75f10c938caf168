// AllocationProbe: counts the heap allocations of CityIndex's default search, for
// CommandLineTests' AllocationTests (not a product). It links CAllocationCounter, which counts
// every malloc of the process.
//
//   AllocationProbe INDEX QUERY...
//
// Opens INDEX, searches each QUERY once to warm up (the first search of a mapping may build
// lazy tables), then searches each QUERY 10 times as README.md's first library example does
// (`index.search(query)`: SEARCH.md order, prefix matching) and reads the count and, of the
// first 20 matches, the ids and coordinates (a name read as a `String` is
// the caller's allocation, not the search's). Prints "allocations: N in M searches" and
// exits 0; "unsupported" (exit 0) where the allocator cannot be counted; exit 1 when INDEX
// does not open.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAllocationCounter
import CityIndex

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: AllocationProbe INDEX QUERY...")
    exit(64)
}
guard allocation_counter_supported() == 1 else {
    print("unsupported")
    exit(0)
}
// The counter counts: an array of a thousand elements is one malloc at least.
let counted = allocation_count()
let sample = [Int](unsafeUninitializedCapacity: 1_000) { buffer, count in count = 0 }
guard allocation_count() > counted, sample.capacity >= 1_000 else {
    print("the allocation counter does not count")
    exit(1)
}
let index: CityIndex
do {
    index = try CityIndex(path: arguments[1])
} catch {
    print("cannot open \(arguments[1]): \(error)")
    exit(1)
}
let queries = Array(arguments.dropFirst(2))

/// The default search and what a list shows of it; its result is kept from the optimizer.
@inline(never)
func searchAndRead(_ query: String) -> Int {
    guard let matches = try? index.search(query) else { return -1 }
    var checksum = matches.count
    for match in matches.prefix(20) {
        checksum &+= match.id &+ Int(match.latitudeMicrodegrees) &+ Int(match.longitudeMicrodegrees)
    }
    return checksum
}

var checksum = 0
for query in queries { checksum &+= searchAndRead(query) }
let before = allocation_count()
for _ in 0 ..< 10 {
    for query in queries { checksum &+= searchAndRead(query) }
}
let allocations = allocation_count() - before
print("allocations: \(allocations) in \(10 * queries.count) searches (checksum \(checksum))")
