#!/usr/bin/env python3
"""Writes the scale report from Scripts/measure-scale.sh's results: a Markdown file with the
tables and a linear fit of build time and peak memory against the number of cities (with the
extrapolation to 100 million), and an SVG plot of both.

Usage: Scripts/plot-scale.py RESULTS.json SCALE.md SCALE.svg
"""
import json
import os
import sys

MODES = [("CityIndex (mapped)", "SEARCH.md"), ("CityIndex --match prefix --rank population", "prefix, population"),
         ("CityIndex --match words --rank alphabetical", "words, alphabetical"),
         ("CityIndex --match words --rank population", "words, population"),
         ("CityIndex --match prefix --rank population --typos auto", "prefix, population, typos"),
         ("CityIndex --match words --rank population --typos auto", "words, population, typos")]


def fit(xs, ys):
    """Least-squares line y = a + b x."""
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread if spread else 0
    return mean_y - slope * mean_x, slope


def duration(seconds):
    return f"{seconds:.1f} s" if seconds < 120 else f"{int(seconds // 60)} min {seconds % 60:.0f} s"


def latency(us):
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.1f} µs"


def panel(rows, key, title, unit, x0, width, height):
    """One chart: `key` of each row against its city count, as SVG elements."""
    left, bottom, top = x0 + 60, height - 40, 30
    right = x0 + width - 15
    xs = [row["cities"] / 1e6 for row in rows]
    ys = [row[key] for row in rows]
    x_max, y_max = max(xs) * 1.05, max(ys) * 1.15
    def px(x): return left + (right - left) * x / x_max
    def py(y): return bottom - (bottom - top) * y / y_max
    parts = [f'<text x="{(left + right) / 2}" y="18" text-anchor="middle" font-size="14">{title}</text>',
             f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="black"/>']
    for step in range(5):
        y = y_max * step / 4
        parts.append(f'<line x1="{left - 4}" y1="{py(y):.1f}" x2="{right}" y2="{py(y):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="11">{y:,.0f}</text>')
    for x in xs:
        parts.append(f'<text x="{px(x):.1f}" y="{bottom + 16}" text-anchor="middle" font-size="11">{x:g}M</text>')
    parts.append(f'<text x="{(left + right) / 2}" y="{height - 6}" text-anchor="middle" font-size="12">cities</text>')
    parts.append(f'<text x="{x0 + 14}" y="{(top + bottom) / 2}" font-size="12" transform="rotate(-90 {x0 + 14} {(top + bottom) / 2})" text-anchor="middle">{unit}</text>')
    points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
    for x, y in zip(xs, ys):
        parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="#1f77b4"/>')
    return parts


def main():
    results, markdown, svg = sys.argv[1:]
    rows = sorted(json.load(open(results)).values(), key=lambda row: row["cities"])
    if not rows:
        sys.exit("no results")
    lines = ["# build-index at scale", "",
             f"From `Scripts/measure-scale.sh` on {rows[-1]['machine']} "
             f"({', '.join(sorted({row['date'] for row in rows}))}), index format 5. Synthetic lists "
             "(`Scripts/generate-cities.py`: Markov names trained on `Data/`, about one alternate name per city); "
             "open + checksum and verify() include starting `city-search`. Regenerate with "
             "`Scripts/measure-scale.sh COUNT...` (rows of other counts are kept in `scale-results.json`).", "",
             "![build time and peak memory against the number of cities](scale.svg)", "",
             "| cities | JSON bytes | index bytes | bytes/city | build time | peak memory | open + checksum | verify() |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['cities']:,} | {row['json_bytes']:,} | {row['index_bytes']:,} | {row['index_bytes'] / row['cities']:.1f} | "
                     f"{duration(row['build_seconds'])} | {row['peak_mib']:,.0f} MiB | {row['open_checksum_ms']:,.0f} ms | "
                     f"{row['verify_seconds']:,.2f} s |")
    lines += ["", "Query latency, p50 / p99 of 2,000 seeded queries per mode (count + first 20 with highlights; "
              "Benchmarks' `ScaleQueries`, after a warm-up pass):", "",
              "| cities | open | " + " | ".join(label for _, label in MODES) + " |",
              "|---:|---:|" + "---:|" * len(MODES)]
    for row in rows:
        modes = row["queries"]["modes"]
        cells = [f"{latency(modes[name]['p50_us'])} / {latency(modes[name]['p99_us'])}" if name in modes else "–" for name, _ in MODES]
        lines.append(f"| {row['cities']:,} | {row['queries']['open_ms']:.2f} ms | " + " | ".join(cells) + " |")
    if len(rows) >= 2:
        millions = [row["cities"] / 1e6 for row in rows]
        time_fit = fit(millions, [row["build_seconds"] for row in rows])
        size_fit = fit(millions, [row["index_bytes"] / 1e6 for row in rows])
        # Memory is not linear: the sorts are bounded by --memory-limit (1 GiB by default) and
        # spill past it, so below the limit a list uses more memory than just above it. Past it,
        # extrapolate from the two largest rows (what still grows with the list).
        largest, second = sorted(rows, key=lambda row: row["cities"])[-1], sorted(rows, key=lambda row: row["cities"])[-2]
        growth = (largest["peak_mib"] - second["peak_mib"]) / (largest["cities"] - second["cities"])
        memory_100m = largest["peak_mib"] + (100e6 - largest["cities"]) * growth
        lines += ["", f"Linear fit over these rows: build time {time_fit[1]:.1f} s per million cities "
                  f"({time_fit[0]:+.1f} s), index {size_fit[1]:.1f} MB per million. Peak memory is not linear: the "
                  "sorts are bounded by `--memory-limit` (default 1 GiB) and spill sorted runs to disk past it. "
                  f"From the two largest rows it grows {growth * 1e6:,.0f} MiB per million cities "
                  "(docs/journal, the status notes on scale, say where). Extrapolated to 100 million cities: "
                  f"{duration(time_fit[0] + 100 * time_fit[1])}, about {memory_100m / 1024:,.1f} GiB of memory, "
                  f"{(size_fit[0] + 100 * size_fit[1]) / 1000:,.1f} GB of index, and scratch disk for the spilled runs "
                  "(about the size of the JSON) plus twice the index while it is written."]
    open(markdown, "w").write("\n".join(lines) + "\n")
    width, height = 420, 260
    elements = panel(rows, "build_seconds", "build time", "seconds", 0, width, height)
    elements += panel(rows, "peak_mib", "peak memory", "MiB", width, width, height)
    open(svg, "w").write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width}" height="{height}" '
                         f'font-family="sans-serif" viewBox="0 0 {2 * width} {height}">\n'
                         f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(elements) + "\n</svg>\n")
    print(f"wrote {markdown} and {svg}", file=sys.stderr)


if __name__ == "__main__":
    main()
