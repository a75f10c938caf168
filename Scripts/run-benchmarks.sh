#!/usr/bin/env bash
# Runs every search strategy side by side (Benchmarks/CompareStrategies) on the real
# 209,557-city list and on Data/, then package-benchmark's PrefixSearch for heap allocations
# per query, and writes Benchmarks/RESULTS.md: absolute figures and ratios to the naive
# filter, all measured in the same run, plus the machine it ran on.
#
# Usage: Scripts/run-benchmarks.sh [--smoke] [CITIES_JSON ...]
#   default inputs: $CITYINDEX_SHARED/data/cities.json.xz (or ../shared/...) and Data/cities500.json.xz
#   --smoke: a short pass on the test fixture (for CI: builds and runs everything, measures nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
smoke=false
if [ "${1:-}" = "--smoke" ]; then smoke=true; shift; fi
Scripts/install-dependencies.sh
if ! dpkg-query -W -f='${Status}' libsqlite3-dev 2>/dev/null | grep -q "install ok installed"; then
    if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq libsqlite3-dev >/dev/null
fi
inputs=("$@")
if [ "$smoke" = true ]; then
    inputs=("$(pwd)/Tests/Fixtures/small.json")
elif [ ${#inputs[@]} -eq 0 ]; then
    shared="${CITYINDEX_SHARED:-../shared}"
    [ -f "$shared/data/cities.json.xz" ] && inputs+=("$(cd "$shared/data" && pwd)/cities.json.xz")
    inputs+=("$(pwd)/Data/cities500.json.xz")
fi
cd Benchmarks
swift build -c release --product CompareStrategies >&2
swift build -c release --product HeadToHead >&2
swift build -c release --product PlaceQueries >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
report="$work/RESULTS.md"
{
    echo "# Benchmark results"
    echo
    echo "Produced by \`Scripts/run-benchmarks.sh\` on $(date -u +%Y-%m-%d): $(nproc) cores"
    echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo),"
    echo "$(uname -sm), $(swift --version 2>&1 | head -1), SQLite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || echo '(system)')."
    echo
    echo "Method: one process per input loads every strategy and runs the same seeded queries"
    echo "(1–10 characters drawn from the input's names: as written, lower-cased, upper-cased and"
    echo "accent-stripped, in random order), timing each query (count + first 20 matches with"
    echo "highlights) with a monotonic clock. Ratios are to the naive filter in the same run. Load is"
    echo "JSON decode (strategies 1–4, excluding decompression), database open (SQLite) or mmap open"
    echo "(CityIndex). Peak memory is each strategy alone in a child process (VmHWM: load + queries)."
    echo "\"Agrees\" compares count, ids and highlights with CityIndex, which the test suite checks"
    echo "against an independent implementation of SEARCH.md."
} > "$report"
count=0
for input in "${inputs[@]}"; do
    count=$((count + 1))
    if [ "$smoke" = true ]; then per_length=5; naive_per_length=2; else per_length=200; naive_per_length=20; fi
    echo >> "$report"
    echo "## $(basename "$input")" >> "$report"
    echo >> "$report"
    .build/release/CompareStrategies "$input" "$work/run$count" "$per_length" "$naive_per_length" >> "$report"
    # The default query against the sorted-array baseline, interleaved query by query (the
    # ratio of issue 11), with warm caches and with caches emptied before every query.
    if [ "$smoke" = true ]; then repeats=1; else repeats=10; fi
    {
        echo
        echo "Head to head, default query (Benchmarks' \`HeadToHead\`: each query on the sorted-array baseline, then on"
        echo "CityIndex, $repeats passes, the fastest time of each per query; cold: 64 MiB written before every query):"
        echo
        echo "| caches | baseline p50 | baseline p99 | CityIndex p50 | CityIndex p99 | CityIndex speedup (p50) |"
        echo "|---|---:|---:|---:|---:|---:|"
        for mode in warm cold; do
            flag=(); [ "$mode" = cold ] && flag=(--cold)
            .build/release/HeadToHead "$input" "$work/run$count/cities.cidx" "$repeats" "${flag[@]}" | python3 -c '
import json, sys
r = json.load(sys.stdin)
keys = ("cache", "baseline_p50_us", "baseline_p99_us", "index_p50_us", "index_p99_us", "speedup_p50")
print("| %s | %.2f µs | %.2f µs | %.2f µs | %.2f µs | %.2fx |" % tuple(r[key] for key in keys))'
        done
        # Nearest cities (GEOK) against a linear scan over every city, the same points.
        if [ "$smoke" = true ]; then points=50; else points=10000; fi
        echo
        echo "Nearest cities (Benchmarks' \`PlaceQueries\`: each point timed twice, the faster kept; the scan on a fiftieth of the points):"
        echo
        .build/release/PlaceQueries "$work/run$count/cities.cidx" "$points"
    } >> "$report"
done

# What forgiving typos costs (issue 57), on Data/: the load mix city-server is loaded with and
# the quality set typed keystroke by keystroke (Scripts/query-sets.py), each query timed in
# the recommended mode and without typos (Benchmarks' ScaleQueries, one process, in turn), on
# one thread per search as city-server searches.
swift build -c release --product ScaleQueries >&2
data="$(cd .. && pwd)/Data/cities500.json.xz"
../.build/release/build-index "$data" -o "$work/data.cidx" --quiet 2> /dev/null \
    || (cd .. && swift build -c release --product build-index >&2 && .build/release/build-index "$data" -o "$work/data.cidx" --quiet)
{
    echo
    echo "## What forgiving typos costs (Data/, words by population, one thread per search, Benchmarks' \`ScaleQueries\`)"
    echo
    echo "| query set | queries | typos | mean | p50 | p99 | max | slowest query | mean ÷ mean without typos |"
    echo "|---|---:|---|---:|---:|---:|---:|---|---:|"
    for set in load-mix type-ahead; do
        python3 ../Scripts/query-sets.py "$set" --data "$data" > "$work/$set.txt"
        if [ "$smoke" = true ]; then head -200 "$work/$set.txt" > "$work/$set.short" && mv "$work/$set.short" "$work/$set.txt"; fi
        SCALE_QUERIES_THREADS=1 SCALE_QUERIES_MODE="words --rank population" .build/release/ScaleQueries "$work/data.cidx" "$work/$set.txt" \
            | python3 -c '
import json, sys
name = sys.argv[1]
r = json.load(sys.stdin)
exact = r["modes"]["CityIndex --match words --rank population"]
for typos, key in (("0", "CityIndex --match words --rank population"), ("auto", "CityIndex --match words --rank population --typos auto")):
    m = r["modes"][key]
    print("| %s | %d | %s | %.0f µs | %.0f µs | %.0f µs | %.0f µs | %s | %.1fx |" % (name, r["queries"], typos, m["mean_us"], m["p50_us"],
          m["p99_us"], m["max_us"], json.dumps(m["slowest"], ensure_ascii=False), m["mean_us"] / exact["mean_us"]))' "$set"
    done
} >> "$report"

# Heap allocations per query: package-benchmark's malloc counters, on the last input.
echo >> "$report"
echo "## Heap allocations per query (package-benchmark, $(basename "${inputs[-1]}"))" >> "$report"
echo >> "$report"
export CITYINDEX_BENCHMARK_INPUT="${inputs[-1]}" CITYINDEX_BENCHMARK_WORK="$work/run$count"
[ "$smoke" = true ] && export CITYINDEX_BENCHMARK_SMOKE=1
swift package --allow-writing-to-package-directory benchmark --target PrefixSearch --format markdown \
    --no-progress > "$work/benchmark.md" 2> "$work/benchmark.err" || { cat "$work/benchmark.err" >&2; exit 1; }
python3 - "$work/benchmark.md" >> "$report" <<'PY'
import re, sys
rows, name = [], None
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("### "):
        name = line[4:].strip()
    elif name and line.startswith("| Malloc (total)"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        scale = {"(K)": 1000, "(M)": 1000000}.get(next((s for s in ("(K)", "(M)") if s in cells[0]), ""), 1)
        rows.append([name, int(cells[3]) * scale])
    elif name and line.startswith("| Time (wall clock)"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        unit = re.search(r"\((\w+)\)", cells[0]).group(1)
        rows[-1].append(f"{cells[3]} {unit}")
overhead = next((r[1] for r in rows if r[0].startswith("harness overhead")), 0)
print("| benchmark | mallocs per query (p50) | after harness overhead | time p50 |")
print("|---|---:|---:|---:|")
for row in rows:
    print(f"| {row[0]} | {row[1]} | {max(0, row[1] - overhead)} | {row[2] if len(row) > 2 else '-'} |")
PY
if [ "$smoke" = true ]; then
    cat "$report"
    echo "benchmark smoke pass: ok" >&2
else
    # The hand-written method and machine notes at the end of RESULTS.md are carried over.
    if [ -f RESULTS.md ] && grep -q '^## Method and machine notes' RESULTS.md; then
        { echo; sed -n '/^## Method and machine notes/,$p' RESULTS.md; } >> "$report"
    fi
    cp "$report" RESULTS.md
    echo "wrote Benchmarks/RESULTS.md" >&2
fi
