#!/usr/bin/env bash
# Measures build-index on the real 209,557-city list and on Data/: index size, elapsed time
# and peak memory (GNU time's maximum resident set size), as a Markdown table.
#
# Usage: Scripts/measure-build.sh [CITIES_JSON ...]
#   default inputs: $CITYINDEX_SHARED/data/cities.json.xz (or ../shared/...) and Data/cities500.json.xz
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
swift build -c release --product build-index >&2
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
    shared="${CITYINDEX_SHARED:-../shared}"
    [ -f "$shared/data/cities.json.xz" ] && inputs+=("$shared/data/cities.json.xz")
    inputs+=("Data/cities500.json.xz")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sm), $(swift --version 2>&1 | head -1)"
echo
echo "| input | cities | JSON bytes | index bytes | bytes/city | index/JSON | build time | peak memory |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for input in "${inputs[@]}"; do
    /usr/bin/time -v .build/release/build-index "$input" -o "$work/index.cidx" --json > "$work/summary.json" 2> "$work/time.txt"
    peak_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    python3 - "$input" "$work/summary.json" "$peak_kb" <<'PY'
import json, sys
path, summary, peak = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
cities, size, json_bytes = summary["cities"], summary["fileBytes"], summary["inputBytes"]
print(f"| {path} | {cities:,} | {json_bytes:,} | {size:,} | {size / max(cities, 1):.1f} | "
      f"{100 * size / json_bytes:.1f}% | {summary['elapsedSeconds']:.2f} s | {peak / 1024:.1f} MiB |")
sections = ", ".join(f"{s['kind']} {s['bytes'] / max(cities, 1):.2f}" for s in summary["sections"])
with open(sys.argv[2] + ".sections", "a") as out:
    out.write(f"| {path} | {sections} |\n")
PY
    cat "$work/summary.json.sections" >> "$work/sections.md"
    rm "$work/summary.json.sections"
done
echo
echo "| input | bytes per city, by section |"
echo "|---|---|"
cat "$work/sections.md"
