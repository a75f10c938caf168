// LocationBias.swift: nearer cities first, without burying famous far ones (WORDS.md §11).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a population-ordered search with a location orders its matches (WORDS.md §11):
///
///     score = (weight + 1) × (1 + boost × e^(−distance / scale))
///
/// where `weight` is the match's population-order weight before integer rounding (the city's
/// population, a tenth for an alternate name, a tenth again when demoted, a tenth per edit or
/// skipped words: `PopulationOrderKey`), `boost` = 100 and `scale` = 50 km. A city next door
/// counts as one a hundred times larger; at 50 km as one 37 times larger, at 230 km about
/// twice, beyond 500 km as itself. So "springfield" typed in Springfield, Illinois (114,000)
/// puts it before Springfield, Missouri (169,000), "portland" typed in Portland, Maine
/// (66,000) before Portland, Oregon (652,000), and "paris" typed in Montréal keeps Paris,
/// France (2.1 million) first: no Paris near Montréal is anywhere near its size. The matches
/// scored are the first `candidateCount` in population order; ties keep that order.
enum LocationBias {
    static let boost = 100.0
    static let scaleMeters = 50_000.0
    /// How many of the most populous matches are scored.
    static let candidateCount = 64

    static func score(weight: Double, meters: Double) -> Double {
        (weight + 1) * (1 + boost * exp(-meters / scaleMeters))
    }
}
