#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer and AddressSanitizer (debug builds). XCTest's own
# allocations show up as leaks under LeakSanitizer, so leak detection is off. The differential
# tests use fewer queries (CITYINDEX_TEST_QUERIES, default 200 here): sanitizers are slow.
#
# Usage: Scripts/sanitizers.sh [thread|address ...]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
if [ -z "${CITYINDEX_SHARED:-}" ] && [ -d ../shared ]; then export CITYINDEX_SHARED="$(cd ../shared && pwd)"; fi
export CITYINDEX_TEST_QUERIES="${CITYINDEX_TEST_QUERIES:-200}"
sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(thread address)
for sanitizer in "${sanitizers[@]}"; do
    echo "== swift test --sanitize=$sanitizer" >&2
    scratch=".build-$sanitizer"
    swift build --sanitize="$sanitizer" --scratch-path "$scratch"
    ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=1 \
        swift test --sanitize="$sanitizer" --scratch-path "$scratch"
done
