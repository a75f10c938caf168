#!/usr/bin/env bash
# Proves the test net holds: applies deliberate mistakes ("mutants") to the search half one at
# a time, builds, and runs the suites that should catch each. A mutant the suites pass is a
# bug the net would miss: it is reported as SURVIVED and the script exits 1.
#
#   Scripts/mutants.sh [NAME...]     all mutants, or only those named (see the list below)
#   Scripts/mutants.sh --list        the mutants, one per line
#
# Each mutant is one exact text replacement in one source file; a replacement that no longer
# matches exactly once (the code moved) stops the script: update the mutant with the code.
# The file is restored after each mutant, and on any exit (Ctrl-C included). Release builds,
# as the suite runs them; each mutant rebuilds what depends on the file (minutes each). Run it
# before and after a refactor of the search: every mutant must be killed both times.
# Needs Data/ (the tests' dataset); the shared folder is used when present, as Scripts/test.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${CITYINDEX_SHARED:-}" ] && [ -d ../shared ]; then export CITYINDEX_SHARED="$(cd ../shared && pwd)"; fi
export CITYINDEX_SHARED="${CITYINDEX_SHARED:-}"

# name | file | text | replacement | suites | what it breaks
# (In text and replacement, \n is a line break. Suites: names of test suites or tests, joined
# by + for several; a --filter pattern.)
mutants=$(cat <<'LIST'
swap-stages|Sources/CityIndex/Search/Plan/SearchPlan.swift|        if allowsQualifiers { stages.append(.qualifier(keeping: restriction)) }\n        if isBiased, let near { stages.append(.bias(near)) }|        if isBiased, let near { stages.append(.bias(near)) }\n        if allowsQualifiers { stages.append(.qualifier(keeping: restriction)) }|PlaceQuery+PublicSearchDifferential+SearchExplanation|the location bias runs before the qualifier stage (WORDS.md §10, §11)
drop-qualified-query|Sources/CityIndex/Search/Plan/SearchCandidates.swift|        SearchCandidates(contents: contents, storage: .entries(entries), query: query, qualifiedQuery: qualifiedQuery, totalCount: totalCount)|        SearchCandidates(contents: contents, storage: .entries(entries), query: query, qualifiedQuery: nil, totalCount: totalCount)|PlaceQuery|holding(_:totalCount:) forgets the qualified query: qualified matches highlight by the whole query
demotion-divisor|Sources/CityIndex/Format/PopulationOrderKey.swift|    package static let demotedDivisor: UInt32 = 10|    package static let demotedDivisor: UInt32 = 9|WordSearch|a demoted alternate weighs a ninth, not a tenth (WORDS.md §5)
no-district-mark|Sources/CityIndex/Search/Stages/Overshadowing/SearchCandidates+Overshadowing.swift|            return .district|            return nil|Overshadowing|districts are never marked (WORDS.md §13 rule 3)
one-typo-from-8-letters|Sources/CityIndex/Search/TypoTolerance.swift|        case .automatic: letterCount >= 8 ? 2 : letterCount >= 4 ? 1 : 0|        case .automatic: letterCount >= 8 ? 1 : letterCount >= 4 ? 1 : 0|TypoTolerance|the automatic budget never allows a second edit (WORDS.md §6)
nearest-bound-off-by-one|Sources/CityIndex/Search/Geometry/NearestSearch.swift|            withUnsafeTemporaryAllocation(of: Double.self, capacity: kept) { distances in|            withUnsafeTemporaryAllocation(of: Double.self, capacity: kept - 1) { distances in|Nearest|the pruning bound is the (k−1)-th distance, not the k-th
bias-decay|Sources/CityIndex/Search/Stages/Location/LocationBias.swift|    static let scaleMeters = 50_000.0|    static let scaleMeters = 60_000.0|PlaceQuery|the bias decays over 60 km, not 50 km (WORDS.md §11)
initialism-length|Sources/CityIndex/Search/Stages/Initialisms/Initialisms.swift|    static let keyLengths = 2 ... 5|    static let keyLengths = 2 ... 4|Initialism|five-letter initialisms are not promoted (WORDS.md §12)
district-radius|Sources/CityIndex/Search/Stages/Overshadowing/Overshadowing.swift|        2_000 + 10_000 * (Double(population) / 1_000_000).squareRoot()|        2_000 + 12_000 * (Double(population) / 1_000_000).squareRoot()|Overshadowing|districts are recognised up to 2 km + 12 km × √millions (WORDS.md §13 rule 3)
highlight-end|Sources/CityIndex/Folding/WordHighlight.swift|                        let end = Int32(truncatingIfNeeded: utf16Offset)\n                        guard !spaceFirst|                        let end = Int32(truncatingIfNeeded: utf16Offset + 1)\n                        guard !spaceFirst|WordSearch|a word highlight ends one UTF-16 unit late after an ASCII letter (WORDS.md §4)
named-city-ratio|Sources/CityIndex/Search/Stages/Overshadowing/Overshadowing.swift|    static let namedCityPopulationRatio: UInt64 = 100|    static let namedCityPopulationRatio: UInt64 = 10|Overshadowing+namedCityAlternates|an alternate is another city's name only when that city has a tenth of the people (WORDS.md §13 rule 5)
spelling-never-chosen|Sources/CityIndex/Search/Stages/Spellings/SearchCandidates+Spellings.swift|                    if count > bestCount { (bestSlot, bestCount) = (slot, count) }|                    if count > bestCount + 1 { (bestSlot, bestCount) = (slot, count) }|spellingClosestToTyped+PublicSearchDifferential|a spelling with one more of the typed letters is not reported (WORDS.md §3)
LIST
)

if [ "${1:-}" = "--list" ]; then
    while IFS='|' read -r name file _ _ suites what; do printf '%-26s %-16s %s (%s)\n' "$name" "$suites" "$what" "$file"; done <<< "$mutants"
    exit 0
fi
selected=("$@")

backup=""
restore() {
    if [ -n "$backup" ] && [ -f "$backup" ]; then
        cp "$backup" "$restore_to"
        rm -f "$backup"
        backup=""
    fi
}
trap restore EXIT INT TERM

# The baseline: unmutated, every suite a mutant names must pass, or a failure proves nothing.
all_suites=$(while IFS='|' read -r _ _ _ _ suites _; do echo "${suites//+/|}"; done <<< "$mutants" | tr '|' '\n' | sort -u | paste -sd '|' -)
echo "baseline: building the unmutated package and running $all_suites" >&2
swift build -c release --build-tests > /dev/null
swift test -c release --skip-build --filter "$all_suites" > /tmp/mutant-baseline.test.log 2>&1 \
    || { echo "mutants.sh: the unmutated suites fail (see /tmp/mutant-baseline.test.log)" >&2; exit 1; }
report=()
survived=0
while IFS='|' read -r name file text replacement suites what; do
    if [ ${#selected[@]} -gt 0 ] && [[ ! " ${selected[*]} " == *" $name "* ]]; then continue; fi
    started=$(date +%s)
    restore_to="$file"
    backup="$(mktemp)"
    cp "$file" "$backup"
    python3 - "$file" "$text" "$replacement" "$name" <<'PYTHON'
import sys
path, text, replacement, name = sys.argv[1:5]
text, replacement = text.replace("\\n", "\n"), replacement.replace("\\n", "\n")
source = open(path, encoding="utf-8").read()
count = source.count(text)
if count != 1:
    sys.exit(f"mutants.sh: mutant {name}: its text occurs {count} times in {path} (expected once): update the mutant")
open(path, "w", encoding="utf-8").write(source.replace(text, replacement))
PYTHON
    if ! swift build -c release --build-tests > "/tmp/mutant-$name.build.log" 2>&1; then
        echo "mutants.sh: mutant $name does not compile (see /tmp/mutant-$name.build.log): fix the mutant" >&2
        exit 1
    fi
    log="/tmp/mutant-$name.test.log"
    suites="${suites//+/|}"
    if swift test -c release --skip-build --filter "$suites" > "$log" 2>&1; then
        verdict="SURVIVED"
        survived=$((survived + 1))
        killers="(the suites $suites passed)"
    else
        verdict="killed"
        # The tests that failed, by name (Swift Testing's "✘ Test "NAME" failed" lines).
        killers=$(grep -E '^✘ Test ".*" failed' "$log" | sed -E 's/^✘ Test "(.*)" failed.*/\1/' | sort -u | head -3 | paste -sd ';' -)
        killers="${killers:-the run failed (see $log)}"
    fi
    restore
    line="$(printf '%-26s %-8s %4ss  %s' "$name" "$verdict" "$(( $(date +%s) - started ))" "$killers")"
    echo "$line"
    report+=("$line")
done <<< "$mutants"
# The working tree is the unmutated one again; rebuild it so the next run starts from it.
swift build -c release --build-tests > /dev/null
echo
echo "mutants: ${#report[@]} run, $survived survived"
[ "$survived" -eq 0 ]
