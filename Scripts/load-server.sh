#!/usr/bin/env bash
# Puts city-server under load on loopback with wrk and prints a Markdown table: /health, and
# /api/search with a seeded mix of the recommended mode's queries (Benchmarks' query mix:
# prefixes, typos, alternate names, places), at 1, 16 and 64 connections for DURATION seconds
# each (30 by default; --smoke: 3), then the mix at 16 connections while the index file is
# replaced every second; and the server's peak resident memory. The server runs on Data/'s
# index (built into a temporary folder), one process, on a free port; wrk's own threads take a
# core of the two.
#
# Usage: Scripts/load-server.sh [--smoke] [DURATION]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=30
if [ "${1:-}" = "--smoke" ]; then duration=3; shift; fi
duration="${1:-$duration}"
command -v wrk > /dev/null || { echo "load-server.sh needs wrk (apt-get install wrk)" >&2; exit 69; }
swift build -c release --product build-index > /dev/null
(cd Server && swift build -c release --product city-server > /dev/null)
work="$(mktemp -d)"
.build/release/build-index -o "$work/cities.cidx" --quiet
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
Server/.build/release/city-server --index "$work/cities.cidx" --port 0 > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 600); do
    grep -q "at http://127.0.0.1:" "$work/server.log" && break
    kill -0 "$server" 2> /dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done
base="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/server.log" | head -1)"
[ -n "$base" ] || { echo "city-server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
# The seeded query mix: 2,000 queries typed the ways the quality script generates them
# (Scripts/query-sets.py load-mix), sent in turn.
python3 Scripts/query-sets.py load-mix > "$work/queries.txt"
python3 - "$work/queries.txt" "$work/queries.lua" <<'PYTHON'
import json, sys, urllib.parse
queries = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
paths = ["/api/search?q=" + urllib.parse.quote(q) for q in queries]
with open(sys.argv[2], "w") as out:
    out.write("local paths = {" + ",".join(json.dumps(p) for p in paths) + "}\n")
    out.write("local i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(\"GET\", paths[i])\nend\n")
    out.write("done = function(summary, latency, requests)\n  io.write(string.format(\"RESULT %d %d %d %d %d %d %d\\n\", summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(50), latency:percentile(99), latency.max, summary.duration, summary.bytes))\nend\n")
PYTHON
cp "$work/queries.lua" "$work/health.lua"
sed -i 's|return wrk.format("GET", paths\[i\])|return wrk.format("GET", "/health")|' "$work/health.lua"
echo "city-server under wrk on loopback, ${duration} s per run; $(uname -m) $(nproc) cores; index: Data/ ($(stat -c %s "$work/cities.cidx") bytes)."
echo
# Every run must end without an error (a failed connection, read or write, a timeout or a
# status other than 2xx): counted here, checked at the end, after the table.
failed_runs=()
echo "| endpoint | connections | requests/s | p50 | p99 | max | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for script in health queries; do
    for connections in 1 16 64; do
        threads=$(( connections < 2 ? 1 : 2 ))
        line="$(wrk -t "$threads" -c "$connections" -d "${duration}s" --latency -s "$work/$script.lua" "$base" | grep '^RESULT')"
        read -r _ requests errors p50 p99 max micros bytes <<< "$line"
        [ "$errors" = 0 ] || failed_runs+=("$script at $connections connections: $errors errors")
        python3 - "$script" "$connections" "$requests" "$errors" "$p50" "$p99" "$max" "$micros" <<'PYTHON'
import sys
script, connections, requests, errors, p50, p99, maximum, micros = sys.argv[1:]
name = "/health" if script == "health" else "/api/search (mix)"
def ms(us): return f"{int(us) / 1000:.2f} ms"
print(f"| {name} | {connections} | {int(requests) / (int(micros) / 1e6):,.0f} | {ms(p50)} | {ms(p99)} | {ms(maximum)} | {errors} |")
PYTHON
    done
done
# The search mix again at 16 connections while another index file is renamed over the served
# one every second (the server verifies and swaps it at its next check): no error, no crash.
(
    while true; do
        cp "$work/cities.cidx" "$work/next.cidx" && mv "$work/next.cidx" "$work/cities.cidx"
        sleep 1
    done
) &
replacer=$!
# At least 10 s: a swap waits for the next check (2 s) and a verification of the whole file.
line="$(wrk -t 2 -c 16 -d "$(( duration > 10 ? duration : 10 ))s" --latency -s "$work/queries.lua" "$base" | grep '^RESULT')"
# Each swap verifies the whole file first (seconds on a busy machine): when none was served
# under load, the replacements go on, without load, until one is (at most 60 s).
for _ in $(seq 1 60); do
    curl -sf "$base/metrics" | grep -q '^city_server_index_replacements_total{outcome="replaced"}' && break
    sleep 1
done
kill "$replacer"; wait "$replacer" 2> /dev/null || true
read -r _ requests errors p50 p99 max micros bytes <<< "$line"
[ "$errors" = 0 ] || failed_runs+=("the search mix while the index was replaced: $errors errors")
python3 - "$requests" "$errors" "$p50" "$p99" "$max" "$micros" <<'PYTHON'
import sys
requests, errors, p50, p99, maximum, micros = sys.argv[1:]
def ms(us): return f"{int(us) / 1000:.2f} ms"
print(f"| /api/search (mix), index replaced every second | 16 | {int(requests) / (int(micros) / 1e6):,.0f} | {ms(p50)} | {ms(p99)} | {ms(maximum)} | {errors} |")
PYTHON
# The server still answers, its metrics counted the requests and the replacements, and its peak
# resident memory (VmHWM: the mapped index's pages it touched count too).
kill -0 "$server" || { echo "city-server died" >&2; cat "$work/server.log" >&2; exit 1; }
curl -sf "$base/health" > /dev/null
metrics="$(curl -sf "$base/metrics")"
grep -q 'city_server_requests_total{endpoint="search",status="200"}' <<< "$metrics"
replaced="$(awk '/^city_server_index_replacements_total\{outcome="replaced"\}/ {print $2}' <<< "$metrics")"
refused="$(awk '/^city_server_index_replacements_total\{outcome="refused"\}/ {print $2}' <<< "$metrics")"
echo
echo "Index files swapped in during the last run: ${replaced:-0} (refused: ${refused:-0}); peak RSS of city-server: $(awk '/VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$server/status")."
[ "${replaced:-0}" -gt 0 ] || { echo "no replacement was served" >&2; exit 1; }
if [ "${#failed_runs[@]}" -gt 0 ]; then
    printf 'load-server: %s\n' "${failed_runs[@]}" >&2
    exit 1
fi
