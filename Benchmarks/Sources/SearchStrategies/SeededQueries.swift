// SeededQueries.swift: the benchmark workload, the same for every strategy and every run.
import Foundation

/// SplitMix64: a small, fast generator whose sequence depends only on its seed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// `perLength` queries for each length 1–10: prefixes of random `names` (of at least that
/// many characters), as written, lower-cased, upper-cased and accent-stripped in turn, then
/// shuffled. The same names and seed give the same queries.
public func makeQueries(names: [String], perLength: Int, seed: UInt64) -> [(length: Int, text: String)] {
    var random = SeededGenerator(state: seed)
    var queries: [(Int, String)] = []
    for length in 1...10 {
        let candidates = names.filter { $0.count >= length }
        guard !candidates.isEmpty else { continue }
        for index in 0..<perLength {
            let prefix = String(candidates.randomElement(using: &random)!.prefix(length))
            let text: String
            switch index % 4 {
            case 0: text = prefix
            case 1: text = prefix.lowercased()
            case 2: text = prefix.uppercased()
            default: text = prefix.folding(options: [.diacriticInsensitive], locale: nil)
            }
            queries.append((length, text))
        }
    }
    queries.shuffle(using: &random)
    return queries
}
