#!/usr/bin/env bash
# Fuzzes CityIndex(bytes:), search, match reading and verify() with libFuzzer and
# AddressSanitizer (the Fuzz/ package), for SECONDS (default 600).
#
# Usage: Scripts/fuzz.sh [SECONDS] [JOBS]
# The working corpus lives in .fuzz/corpus (not committed). At the end it is merged with the
# previous regressions into a minimal set that keeps the coverage of both, which replaces
# Tests/Fixtures/fuzz-regressions/, which the test suite replays.
# A crash stops the run and leaves its input in .fuzz/ (crash-*): fix it, then add it there.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
jobs="${2:-1}"
Scripts/install-dependencies.sh
(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
fuzzer=Fuzz/.build/release/FuzzIndex
mkdir -p .fuzz/corpus
"$fuzzer" --write-seeds .fuzz/seeds
regressions=Tests/Fixtures/fuzz-regressions
mkdir -p "$regressions"
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0
started=$(date +%s)
"$fuzzer" -max_total_time="$seconds" -max_len=8192 -timeout=10 -jobs="$jobs" -workers="$jobs" \
    -artifact_prefix=.fuzz/ .fuzz/corpus .fuzz/seeds "$regressions" 2>&1 | grep -v '^#[0-9].*\(pulse\|NEW\|REDUCE\)' || true
# (One pattern at a time: ls fails when any pattern matches nothing, which hid findings.)
findings=$(find .fuzz -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
[ -z "$findings" ] || { echo "findings in .fuzz/: $findings" >&2; exit 1; }
rm -rf .fuzz/merged && mkdir -p .fuzz/merged
"$fuzzer" -merge=1 .fuzz/merged "$regressions" .fuzz/corpus .fuzz/seeds >/dev/null 2>&1
rm -rf "$regressions" && mkdir -p "$regressions"
cp .fuzz/merged/* "$regressions"/
echo "fuzzed for $(( $(date +%s) - started )) s with $jobs job(s); kept $(ls "$regressions" | wc -l) inputs in $regressions" >&2
