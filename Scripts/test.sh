#!/usr/bin/env bash
# The README's test command. Installs missing C libraries, builds the package and its tests in
# release mode (the command-line tests run the built tools; the differential tests search real
# lists thousands of times), runs the suite and prints how long it all took.
#
#   Scripts/test.sh [--full] [swift test options, e.g. --filter Typo]
#   --full  also the long runs (CITYINDEX_FULL_TESTS=1): the differential tests at their full
#           number of queries and the whole fuzz corpus replayed. CI (.ci/run) runs this.
#
# Tests that need the shared folder (the real 209,557-city list and the spec's fold vectors)
# read it from $CITYINDEX_SHARED; this script sets it to ../shared when that folder exists.
# Without it those tests say they are skipped, and everything built on Data/ still runs; with
# it, a skipped test fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
mode="quick (Scripts/test.sh --full runs the long ones too)"
if [ "${1:-}" = "--full" ]; then
    shift
    export CITYINDEX_FULL_TESTS=1
    mode="full"
fi
# The suite's output, kept to look for skipped tests.
log="$(mktemp)"
trap 'rm -f "$log"; echo "test suite ($mode): $(( $(date +%s) - start )) s, build included" >&2' EXIT
Scripts/install-dependencies.sh
if [ -z "${CITYINDEX_SHARED:-}" ] && [ -d ../shared ]; then
    CITYINDEX_SHARED="$(cd ../shared && pwd)"
fi
export CITYINDEX_SHARED="${CITYINDEX_SHARED:-}"
echo "CITYINDEX_SHARED=${CITYINDEX_SHARED:-(not set: tests on the shared data are skipped)}" >&2
# One build of everything, tools included, with the tests (a separate `swift build` first
# would compile every module twice).
swift build -c release --build-tests
swift test -c release --skip-build "$@" 2>&1 | tee "$log"
# With the shared folder and the dependencies installed, every test runs: a skipped one means
# a setup problem, and fails the run (CI runs with ../shared beside the clone).
if [ -n "$CITYINDEX_SHARED" ] && grep -E '^\S+ Test ".*" skipped' "$log" >&2; then
    echo "test.sh: the tests above were skipped although CITYINDEX_SHARED is set" >&2
    exit 1
fi
