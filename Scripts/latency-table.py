#!/usr/bin/env python3
"""Prints, per search mode, the p50 and p99 of two sides' per-query minimum latencies and the
median of the per-query ratios (new / base), as a Markdown table.

Usage: Scripts/latency-table.py WORK ROUNDS REPEAT TITLE NAME...
  WORK holds NAME-base-R.json and NAME-new-R.json for R in 1 … ROUNDS: Benchmarks'
  ScaleQueries' SCALE_QUERIES_TIMES output (per mode, each query's fastest of REPEAT timings,
  in µs). Every query keeps its fastest time over the rounds. TITLE is the line printed first.
Used by Scripts/compare-readers.sh (two readers, one index) and Scripts/compare-builds.sh (one
reader, two builders' index files).
"""
import json
import statistics
import sys

work, rounds, title, names = sys.argv[1], int(sys.argv[2]), sys.argv[4], sys.argv[5:]


def minima(name, side):
    runs = [json.load(open(f"{work}/{name}-{side}-{r}.json")) for r in range(1, rounds + 1)]
    return {mode: [min(run[mode][q] for run in runs) for q in range(len(runs[0][mode]))] for mode in runs[0]}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def show(us):
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.2f} µs"


print(title + "\n")
for name in names:
    old, new = minima(name, "base"), minima(name, "new")
    print(f"### {name}\n")
    print("| mode | base p50 | new p50 | base p99 | new p99 | median per-query ratio (new / base) |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode in old:
        ratios = [n / o for o, n in zip(old[mode], new[mode]) if o > 0]
        print(f"| {mode.replace('CityIndex ', '')} | {show(percentile(old[mode], 0.5))} | {show(percentile(new[mode], 0.5))} | "
              f"{show(percentile(old[mode], 0.99))} | {show(percentile(new[mode], 0.99))} | {statistics.median(ratios):.3f} |")
    print()
