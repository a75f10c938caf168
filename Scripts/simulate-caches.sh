#!/usr/bin/env bash
# Counts what the default query (SEARCH.md: count + first 20 with highlights) costs CityIndex and
# the sorted-array baseline, without a clock: instructions executed and last-level-cache misses
# for code, data reads and data writes, per query, with the caches emptied before every query
# (Benchmarks' HeadToHead --cold, run under valgrind's cache simulator, callgrind, collecting
# only inside each strategy's search call). The counts are deterministic: the same binaries and
# index give the same figures on every run, where this VM's timings drift by up to 1.7x. What
# they leave out is what a simulator cannot see (overlapping misses, prefetches, branch
# prediction), so they explain timings rather than replace them.
#
# Usage: Scripts/simulate-caches.sh [QUERIES]
#   QUERIES: how many of HeadToHead's seeded queries (default 100; each costs about a second
#   under the simulator, plus the baseline's load of the list, about two minutes).
# Runs on Data/ and, when $CITYINDEX_SHARED is set, on the 209,557-city list. Needs valgrind
# (Debian: apt-get install valgrind). The simulated caches are this machine's L1 (code and
# data) and last level, read from /sys. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/measurement-context.sh
queries="${1:-100}"
command -v valgrind > /dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 69; }
Scripts/install-dependencies.sh
work=.compare
mkdir -p "$work"
swift build -c release --product build-index > /dev/null
(cd Benchmarks && swift build -c release --product HeadToHead > /dev/null)
bin="$(swift build -c release --show-bin-path)"
headToHead="$(cd Benchmarks && swift build -c release --show-bin-path)/HeadToHead"

# One cache level of cpu0 as valgrind's SIZE,ASSOCIATIVITY,LINE (64-byte lines assumed).
cache() {
    local level="$1" type="$2"
    for directory in /sys/devices/system/cpu/cpu0/cache/index*; do
        if [ "$(cat "$directory/level")" = "$level" ] && [ "$(cat "$directory/type")" = "$type" ]; then
            local size
            size="$(cat "$directory/size")"
            echo "$(( ${size%K} * 1024 )),$(cat "$directory/ways_of_associativity"),64"
            return
        fi
    done
    echo "no level $level $type cache in /sys" >&2
    exit 69
}
simulated=(--I1="$(cache 1 Instruction)" --D1="$(cache 1 Data)" --LL="$(cache 3 Unified)")

default_inputs
echo "Callgrind, ${simulated[*]}; $queries queries, caches emptied before each (HeadToHead --cold);"
echo "per query: instructions, and last-level misses for code (I), data reads (D rd) and writes (D wr)."
echo
echo "| list | strategy | instructions | I misses | D rd misses | D wr misses | all misses |"
echo "|---|---|---:|---:|---:|---:|---:|"
for input in "${inputs[@]}"; do
    name="$(basename "$input" .json.xz)"
    "$bin/build-index" "$input" -o "$work/$name.cidx" --quiet
    for strategy in "sorted array:SortedKeysBinaryA0C6search_5limit" "CityIndex:MappedIndexC6search_5limit"; do
        label="${strategy%%:*}"
        symbol="${strategy#*:}"
        output="$work/callgrind-$name-${label// /-}.out"
        HEAD_TO_HEAD_QUERIES="$queries" valgrind --tool=callgrind --cache-sim=yes "${simulated[@]}" \
            --callgrind-out-file="$output" --toggle-collect="*$symbol*" \
            "$headToHead" "$input" "$work/$name.cidx" 1 --cold > /dev/null 2> "$work/callgrind.log"
        Scripts/callgrind-totals.py "$output" "$queries" | python3 -c '
import json, sys
count = json.load(sys.stdin)
instructions, code, reads, writes = count["Ir"], count["ILmr"], count["DLmr"], count["DLmw"]
print(f"| {sys.argv[1]} | {sys.argv[2]} | {instructions:,.0f} | {code:.1f} | {reads:.1f} | {writes:.1f} | {code + reads + writes:.1f} |")
' "$name" "$label"
    done
done
