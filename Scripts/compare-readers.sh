#!/usr/bin/env bash
# Compares the search latency of this checkout's reader with an earlier revision's, on the same
# index files: the claims of a reader-only release ("0.7.3 answers word queries 20% faster than
# 0.7.2") come from here.
#
# Both readers run Benchmarks' ScaleQueries (this checkout's harness, built once over each
# revision's Sources/) on the index this checkout's build-index writes of Data/ and, when
# $CITYINDEX_SHARED is set, of the 209,557-city list. The two alternate for ROUNDS rounds
# (which goes first alternates too), timing each query 3 times a round (REPEAT=N to change);
# every query keeps its fastest time over the rounds, and
# the table gives, per search mode, the p50 and p99 of those minima for each reader and the
# median of the per-query ratios (new / base). This VM's speed drifts by up to 1.7x between
# processes over minutes; alternating short rounds and keeping minima cancels most of it, but
# a change under about 3% stays within what two runs disagree by (run it twice).
#
# COUNT=N counts instead of timing: each reader runs once per mode under valgrind's callgrind
# (no cache simulation) on N seeded queries per length (10 lengths), collecting only inside the
# harness's search call, and the table gives the instructions per query of each and their
# ratio. Deterministic (the same builds give the same counts), so it settles changes of
# computation far below the timings' 3%; it is blind to what waits on memory (compare the
# timings too) and needs valgrind (apt-get install valgrind). Not for the typo-tolerant modes
# of readers from 0.8.0 on: they walk on two threads (CityIndex.typoSearchThreads), only the
# calling thread's share is collected, and that share moves with scheduling (0.78x and 1.17x
# between identical readers in one run); count those with one thread or time them.
#
# Usage: Scripts/compare-readers.sh BASE [ROUNDS]
#   BASE: a git revision whose reader reads this checkout's format (e.g. 0.7.2); ROUNDS: 5.
# Takes about 15 minutes (two release builds, then about two minutes per round; COUNT=20: a few
# minutes after the builds). Work files are in .compare/ (gitignored). Prints a Markdown table.
# It measures, it does not compare answers: the test suite proves those.
# QUERY_SET=load-mix or type-ahead times that set of Scripts/query-sets.py (city-server's load
# mix, or the quality set typed keystroke by keystroke) instead of the seeded prefixes.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/measurement-context.sh
comparison_arguments Scripts/compare-readers.sh "$@"
rm -rf "$work"/*.json "$work"/*-count.tsv
build_harnesses
default_inputs
names=()
for input in "${inputs[@]}"; do
    name="$(basename "$input" .json.xz)"
    names+=("$name")
    "$bin/build-index" "$input" -o "$work/$name.cidx" --quiet
    if [ -n "${COUNT:-}" ]; then
        command -v valgrind > /dev/null || { echo "COUNT needs valgrind (apt-get install valgrind)" >&2; exit 69; }
        modes="$(SCALE_QUERIES_PER_LENGTH=1 "$new" "$work/$name.cidx" | python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["modes"]))')"
        for reader in base new; do
            binary="$new"
            [ "$reader" = base ] && binary="$old"
            echo "$name: counting the $reader reader" >&2
            while IFS= read -r mode; do
                # Every query runs twice (the warm-up pass and the timed one): both are collected.
                SCALE_QUERIES_ONLY="$mode" SCALE_QUERIES_PER_LENGTH="$COUNT" valgrind --tool=callgrind \
                    --callgrind-out-file="$work/callgrind-count.out" --toggle-collect='*MappedIndexC6search_5limit*' \
                    "$binary" "$work/$name.cidx" > /dev/null 2> "$work/callgrind.log"
                printf '%s\t%s\n' "$mode" "$(Scripts/callgrind-totals.py "$work/callgrind-count.out" "$((COUNT * 10 * 2))" \
                    | python3 -c 'import json, sys; print(json.load(sys.stdin)["Ir"])')" >> "$work/$name-$reader-count.tsv"
            done <<< "$modes"
        done
        continue
    fi
    # Each reader on this list's one index file, on the seeded queries or QUERY_SET's.
    query_file=()
    if [ -n "${QUERY_SET:-}" ]; then
        python3 Scripts/query-sets.py "$QUERY_SET" > "$work/queries-$QUERY_SET.txt"
        query_file=("$work/queries-$QUERY_SET.txt")
    fi
    time_reader() {
        local binary="$new"
        [ "$1" = base ] && binary="$old"
        SCALE_QUERIES_REPEAT="${REPEAT:-3}" SCALE_QUERIES_TIMES="$work/$name-$1-$2.json" "$binary" "$work/$name.cidx" "${query_file[@]}" > /dev/null
    }
    alternate_rounds "$name" "$rounds" time_reader
done
head="$(checkout_label)"
if [ -n "${COUNT:-}" ]; then
    python3 - "$work" "$base" "$head" "$machine" "${names[@]}" <<'PYTHON'
import os, sys
work, base, head, machine, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
print(f"Readers: {base} (base) and {head} (new); instructions per query (callgrind, {int(os.environ['COUNT']) * 10} "
      f"seeded queries per mode, each run twice); {machine}.\n")
for name in names:
    counts = {reader: dict(line.rstrip("\n").split("\t") for line in open(f"{work}/{name}-{reader}-count.tsv"))
              for reader in ("base", "new")}
    print(f"### {name}\n")
    print("| mode | base instructions | new instructions | ratio (new / base) |")
    print("|---|---:|---:|---:|")
    for mode, old in counts["base"].items():
        new = counts["new"][mode]
        print(f"| {mode.replace('CityIndex ', '')} | {float(old):,.0f} | {float(new):,.0f} | {float(new) / float(old):.4f} |")
    print()
PYTHON
    exit 0
fi
Scripts/latency-table.py "$work" "$rounds" "${REPEAT:-3}" \
    "Readers: $base (base) and $head (new); $rounds alternating rounds of ${REPEAT:-3} timings per query, per-query minimum; $machine." \
    "${names[@]}"
