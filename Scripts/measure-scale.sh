#!/usr/bin/env bash
# Measures build-index at scale on synthetic lists (Scripts/generate-cities.py: Markov names
# trained on Data/, about one alternate name per city): for each city count, the wall time and
# peak resident memory of the build (GNU time), the index size, and the time to open and
# checksum it and to verify() it (city-search --inspect, --verify). Writes a Markdown table
# to Benchmarks/SCALE.md and prints it. Not part of CI (minutes to hours).
#
# Usage: Scripts/measure-scale.sh [COUNT ...]        (default: 1000000 3000000)
# Generated lists are kept in .scale/ (gitignored) and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(1000000 3000000)
swift build -c release --product build-index >/dev/null
swift build -c release --product city-search >/dev/null
bin="$(swift build -c release --show-bin-path)"
mkdir -p .scale
seconds() { python3 -c 'import sys,time; print(f"{time.time():.3f}")'; }
table="| cities | JSON bytes | index bytes | bytes/city | build time | peak memory | open + checksum | verify() |
|---:|---:|---:|---:|---:|---:|---:|---:|"
for count in "${counts[@]}"; do
    list=".scale/cities-$count.json"
    [ -s "$list" ] || python3 Scripts/generate-cities.py "$count" --seed "$count" > "$list"
    index=".scale/cities-$count.cidx"
    /usr/bin/time -v "$bin/build-index" "$list" -o "$index" --quiet --max-input-bytes 100000000000 2> .scale/time.txt
    wall=$(grep "Elapsed (wall clock)" .scale/time.txt | awk '{print $NF}')
    rss_kb=$(grep "Maximum resident set size" .scale/time.txt | awk '{print $NF}')
    start=$(seconds); "$bin/city-search" --index "$index" --inspect > /dev/null; opened=$(seconds)
    "$bin/city-search" --index "$index" --verify --limit 0 x > /dev/null; verified=$(seconds)
    json_bytes=$(stat -c %s "$list"); index_bytes=$(stat -c %s "$index")
    row=$(python3 -c "
c, j, i, rss = $count, $json_bytes, $index_bytes, $rss_kb
print(f'| {c:,} | {j:,} | {i:,} | {i / c:.1f} | $wall | {rss / 1024:,.0f} MiB | {($opened - $start) * 1000:,.0f} ms | {($verified - $opened):,.2f} s |')")
    echo "$row" >&2
    table+=$'\n'"$row"
done
{
    echo "# build-index at scale"
    echo
    echo "From \`Scripts/measure-scale.sh ${counts[*]}\` on $(uname -m) Linux, $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(swift --version 2>&1 | head -1 | sed 's/.*Swift version \([0-9.]*\).*/Swift \1/'), $(date +%Y-%m-%d)."
    echo "Synthetic lists (\`Scripts/generate-cities.py\`); open + checksum and verify() include starting city-search."
    echo
    echo "$table"
} > Benchmarks/SCALE.md
cat Benchmarks/SCALE.md
