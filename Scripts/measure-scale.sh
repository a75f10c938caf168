#!/usr/bin/env bash
# Measures build-index at scale on synthetic lists (Scripts/generate-cities.py: Markov names
# trained on Data/, about one alternate name per city): for each city count, the wall time and
# peak resident memory of the build (GNU time), the index size, the time to open and checksum
# it and to verify() it (city-search inspect, verify), and the p50/p99 query latency of
# every search mode (Benchmarks' ScaleQueries: 2,000 seeded queries per mode). Each count's
# row is kept in Benchmarks/scale-results.json (a later run with other counts adds to it);
# Scripts/plot-scale.py then writes Benchmarks/SCALE.md (the tables) and Benchmarks/scale.svg
# (time and memory against the number of cities). Not part of CI (minutes to hours); CI runs
# `Scripts/measure-scale.sh --smoke` (200,000 cities, results not kept).
#
# Usage: Scripts/measure-scale.sh [--smoke] [COUNT ...]    (default: 1000000 3000000)
# Generated lists are kept in .scale/ (gitignored) and reused; the build needs free disk for
# about twice the index beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/measurement-context.sh
Scripts/install-dependencies.sh
smoke=false
if [ "${1:-}" = "--smoke" ]; then smoke=true; shift; fi
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(1000000 3000000)
[ "$smoke" = true ] && counts=(200000)
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
swift build -c release --product build-index >/dev/null
swift build -c release --product city-search >/dev/null
(cd Benchmarks && swift build -c release --product ScaleQueries >/dev/null)
bin="$(swift build -c release --show-bin-path)"
queries="$(cd Benchmarks && swift build -c release --show-bin-path)/ScaleQueries"
mkdir -p .scale
results=Benchmarks/scale-results.json
[ "$smoke" = true ] && results=.scale/smoke-results.json
[ -s "$results" ] || echo '{}' > "$results"
seconds() { python3 -c 'import time; print(f"{time.time():.3f}")'; }
for count in "${counts[@]}"; do
    list=".scale/cities-$count.json"
    [ -s "$list" ] || python3 Scripts/generate-cities.py "$count" --seed "$count" > "$list"
    index=".scale/cities-$count.cidx"
    /usr/bin/time -v "$bin/build-index" "$list" -o "$index" --quiet --max-input-bytes 100000000000 2> .scale/time.txt
    wall=$(grep "Elapsed (wall clock)" .scale/time.txt | awk '{print $NF}')
    rss_kb=$(grep "Maximum resident set size" .scale/time.txt | awk '{print $NF}')
    start=$(seconds); "$bin/city-search" --index "$index" --inspect > /dev/null; opened=$(seconds)
    "$bin/city-search" verify --index "$index" > /dev/null; verified=$(seconds)
    latency=$("$queries" "$index")
    python3 - "$results" "$count" "$(stat -c %s "$list")" "$(stat -c %s "$index")" "$wall" "$rss_kb" \
        "$start" "$opened" "$verified" "$latency" "$machine" <<'PY'
import datetime, json, sys
path, count, json_bytes, index_bytes, wall, rss_kb, start, opened, verified, latency, machine = sys.argv[1:]
parts = [float(part) for part in wall.split(":")]
build_seconds = sum(value * 60 ** power for power, value in enumerate(reversed(parts)))
rows = json.load(open(path))
rows[count] = {"cities": int(count), "json_bytes": int(json_bytes), "index_bytes": int(index_bytes),
               "build_seconds": build_seconds, "peak_mib": int(rss_kb) / 1024,
               "open_checksum_ms": (float(opened) - float(start)) * 1000, "verify_seconds": float(verified) - float(opened),
               "queries": json.loads(latency), "machine": machine, "date": datetime.date.today().isoformat()}
json.dump(rows, open(path, "w"), indent=1, sort_keys=True)
row = rows[count]
print(f"{int(count):,} cities: {row['build_seconds']:.1f} s, {row['peak_mib']:,.0f} MiB, {row['index_bytes']:,} bytes", file=sys.stderr)
PY
done
if [ "$smoke" = true ]; then
    python3 Scripts/plot-scale.py "$results" .scale/SCALE.md .scale/scale.svg
else
    python3 Scripts/plot-scale.py "$results" Benchmarks/SCALE.md Benchmarks/scale.svg
    cat Benchmarks/SCALE.md
fi
