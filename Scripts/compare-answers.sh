#!/usr/bin/env bash
# Compares the answers of this checkout's reader with an earlier revision's: the proof that a
# change meant to keep behaviour (a refactor, a faster walk) keeps every answer.
#
# Both readers run Benchmarks' ScaleQueries (this checkout's harness, built over each
# revision's Sources/, as Scripts/compare-readers.sh does) with SCALE_QUERIES_ANSWERS on the
# index this checkout's build-index writes of Data/: every query of the load mix, the
# type-ahead replay (Scripts/query-sets.py) and the seeded prefixes, in 13 option sets (both
# matchings, both orders, typos none and auto; from a point, within a radius, in countries;
# typos 2). Each answer is the count and the first 20 matches' ids, matched names, edits,
# highlights and skipped words. Prints how many answers were compared and differ, and the
# first differences; exits 1 when any differs.
#
# Usage: Scripts/compare-answers.sh BASE
#   BASE: a git revision whose reader reads this checkout's format and has the overloads of
#   0.13.0. Takes about 10 minutes (two release builds, then the answers). Work files are in
#   .compare/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/measurement-context.sh
comparison_arguments Scripts/compare-answers.sh "$@"
build_harnesses
"$bin/build-index" Data/cities500.json.xz -o "$work/answers.cidx" --quiet
{
    python3 Scripts/query-sets.py load-mix
    python3 Scripts/query-sets.py type-ahead
} > "$work/answer-queries.txt"
for set in "$work/answer-queries.txt" ""; do
    label="${set:+listed}"
    for side in base new; do
        binary="$new"
        [ "$side" = base ] && binary="$old"
        echo "answers of the $side reader (${label:-seeded} queries)..." >&2
        # shellcheck disable=SC2086
        SCALE_QUERIES_ANSWERS="$work/answers-$side-${label:-seeded}.txt" "$binary" "$work/answers.cidx" $set
    done
done
python3 - "$work" <<'PYTHON'
import sys
work = sys.argv[1]
compared = differing = 0
for label in ("listed", "seeded"):
    base = open(f"{work}/answers-base-{label}.txt", encoding="utf-8").read().split("\n")
    new = open(f"{work}/answers-new-{label}.txt", encoding="utf-8").read().split("\n")
    if len(base) != len(new):
        print(f"{label}: {len(base)} answers from the base reader, {len(new)} from the new one")
        sys.exit(1)
    for old, now in zip(base, new):
        compared += old != "" or now != ""
        if old != now:
            differing += 1
            if differing <= 10:
                print(f"differs:\n  base: {old[:400]}\n  new:  {now[:400]}")
print(f"{compared:,} answers compared, {differing:,} differ")
sys.exit(1 if differing else 0)
PYTHON
