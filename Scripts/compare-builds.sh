#!/usr/bin/env bash
# Compares the index files an earlier revision's build-index writes with this checkout's, read
# by this checkout's reader: their size by section and the search latency on each. The claims of
# a builder-only release ("0.8.2's word trie makes typo-tolerant word search 12% faster for
# 0.9% more bytes") come from here; Scripts/compare-readers.sh compares readers on one file.
#
# Both builders index Data/ and, when $CITYINDEX_SHARED is set, the 209,557-city list. Benchmarks'
# ScaleQueries (this checkout's) then alternates between the two files of each list for ROUNDS
# rounds (which goes first alternates too), timing each query 3 times a round (REPEAT=N to
# change); every query keeps its fastest time over the rounds, and the table gives, per search
# mode, the p50 and p99 of those minima for each file and the median of the per-query ratios
# (new / base). As with compare-readers.sh, a change under about 3% stays within what two runs
# disagree by (run it twice).
#
# Usage: Scripts/compare-builds.sh BASE [ROUNDS]
#   BASE: a git revision whose build-index writes a format this checkout reads; ROUNDS: 5.
# Takes about 15 minutes (three release builds, then about two minutes per round). Work files
# are in .compare/ (gitignored). Prints Markdown tables. It measures, it does not compare
# answers: the test suite proves those.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/measurement-context.sh
comparison_arguments Scripts/compare-builds.sh "$@"
rm -rf "$work"/*-base-*.json "$work"/*-new-*.json
extract_revision "$base" "$work/builder-base"
echo "building the build-index of $base and of this checkout..." >&2
(cd "$work/builder-base" && swift build -c release --product build-index > /dev/null)
swift build -c release --product build-index > /dev/null
swift build -c release --product city-search > /dev/null
(cd Benchmarks && swift build -c release --product ScaleQueries > /dev/null)
old="$(cd "$work/builder-base" && swift build -c release --show-bin-path)/build-index"
bin="$(swift build -c release --show-bin-path)"
reader="$(cd Benchmarks && swift build -c release --show-bin-path)/ScaleQueries"
default_inputs
names=()
for input in "${inputs[@]}"; do
    name="$(basename "$input" .json.xz)"
    names+=("$name")
    "$old" "$input" -o "$work/$name-base.cidx" --quiet
    "$bin/build-index" "$input" -o "$work/$name-new.cidx" --quiet
    for side in base new; do
        "$bin/city-search" --index "$work/$name-$side.cidx" --verify > /dev/null
        "$bin/city-search" --index "$work/$name-$side.cidx" --inspect > "$work/$name-$side-sections.txt"
    done
    # This checkout's reader on each builder's file of this list.
    time_file() {
        SCALE_QUERIES_REPEAT="${REPEAT:-3}" SCALE_QUERIES_TIMES="$work/$name-$1-$2.json" "$reader" "$work/$name-$1.cidx" > /dev/null
    }
    alternate_rounds "$name" "$rounds" time_file
done
head="$(checkout_label)"
python3 - "$work" "$base" "$head" "${names[@]}" <<'PYTHON'
import re, sys
work, base, head, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
print(f"Index files: build-index of {base} (base) and of {head} (new).\n")
for name in names:
    sizes = {}
    for side in ("base", "new"):
        text = open(f"{work}/{name}-{side}-sections.txt").read()
        sections = {m[1]: int(m[2]) for m in re.finditer(r"^\s+([A-Z]{4})\s+\w+\s+\d+\s+(\d+)", text, re.M)}
        sections["file"] = int(re.search(r"^size:\s+(\d+)", text, re.M)[1])
        sizes[side] = sections
    print(f"### {name}: bytes\n")
    print("| section | base | new | change |")
    print("|---|---:|---:|---:|")
    for section, old in sizes["base"].items():
        new = sizes["new"].get(section, 0)
        if old != new or section == "file":
            print(f"| {section} | {old:,} | {new:,} | {new - old:+,} ({(new - old) / old:+.2%}) |")
    print()
PYTHON
Scripts/latency-table.py "$work" "$rounds" "${REPEAT:-3}" \
    "Latency: this checkout's reader ($head) on each file; $rounds alternating rounds of ${REPEAT:-3} timings per query, per-query minimum; $machine." \
    "${names[@]}"
