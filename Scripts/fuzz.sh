#!/usr/bin/env bash
# Fuzzes CityIndex(bytes:), search, match reading and verify() with libFuzzer and
# AddressSanitizer (the Fuzz/ package), for SECONDS (default 600).
#
# Usage: Scripts/fuzz.sh [SECONDS] [JOBS]
#        Scripts/fuzz.sh --replay   builds the fuzzer and runs every committed regression input
#                                   once under AddressSanitizer (CI; about a minute), then stops.
# The working corpus lives in .fuzz/corpus (not committed). At the end, the inputs of this run
# that reach coverage the committed regressions (Tests/Fixtures/fuzz-regressions/, replayed by
# the test suite) do not reach are added to them. Merging only ever adds: no committed input is
# removed or changed, whatever this run covered.
# A crash stops the run and leaves its input in .fuzz/ (crash-*): fix it, then add it there.
# FUZZER=path runs an already built fuzzer instead of building one; FUZZ_WORK and FUZZ_REGRESSIONS
# move the working directory (.fuzz) and the regression corpus (the tests use all three).
set -euo pipefail
cd "$(dirname "$0")/.."
replay=false
if [ "${1:-}" = "--replay" ]; then replay=true; shift; fi
seconds="${1:-600}"
jobs="${2:-1}"
work="${FUZZ_WORK:-.fuzz}"
if [ -n "${FUZZER:-}" ]; then
    fuzzer="$FUZZER"
else
    Scripts/install-dependencies.sh
    (cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
    fuzzer=Fuzz/.build/release/FuzzIndex
fi
regressions="${FUZZ_REGRESSIONS:-Tests/Fixtures/fuzz-regressions}"
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0
mkdir -p "$work"
if $replay; then
    # -runs=0: each input of the directory runs once, then libFuzzer stops; a crash, a
    # sanitizer report or a 10 s hang fails with its input named.
    count=$(find "$regressions" -type f | wc -l)
    "$fuzzer" -runs=0 -timeout=10 "$regressions" > "$work/replay.log" 2>&1 \
        || { tail -40 "$work/replay.log" >&2; echo "fuzz.sh: a regression input failed (log: $work/replay.log)" >&2; exit 1; }
    echo "fuzz.sh: replayed the $count committed regression inputs under AddressSanitizer, none failed" >&2
    exit 0
fi
mkdir -p "$work"/corpus
"$fuzzer" --write-seeds "$work"/seeds
mkdir -p "$regressions"
started=$(date +%s)
"$fuzzer" -max_total_time="$seconds" -max_len=8192 -timeout=10 -jobs="$jobs" -workers="$jobs" \
    -artifact_prefix="$work"/ "$work"/corpus "$work"/seeds "$regressions" 2>&1 | grep -v '^#[0-9].*\(pulse\|NEW\|REDUCE\)' || true
# (One pattern at a time: ls fails when any pattern matches nothing, which hid findings.)
findings=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
[ -z "$findings" ] || { echo "findings in $work/: $findings" >&2; exit 1; }
# libFuzzer's -merge=1 adds to the first directory the inputs of the others that add coverage
# to it, and never deletes from it.
before=$(find "$regressions" -type f | wc -l)
"$fuzzer" -merge=1 "$regressions" "$work"/corpus "$work"/seeds >/dev/null 2>&1
after=$(find "$regressions" -type f | wc -l)
[ "$after" -ge "$before" ] || { echo "merging lost regression inputs ($before before, $after after)" >&2; exit 1; }
echo "fuzzed for $(( $(date +%s) - started )) s with $jobs job(s); added $(( after - before )) inputs to $regressions ($after in all)" >&2
