#!/usr/bin/env bash
# Runs the whole test suite: installs missing C libraries, builds every product in release
# mode (the command-line tests run the built tools), then runs `swift test` in release mode
# (the differential tests search 235k-city lists thousands of times).
#
# Tests that need the shared folder (the real 209,557-city list and the spec's fold vectors)
# read it from $CITYINDEX_SHARED; this script sets it to ../shared when that folder exists.
# Without it those tests say they are skipped, and everything built on Data/ still runs.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
if [ -z "${CITYINDEX_SHARED:-}" ] && [ -d ../shared ]; then
    CITYINDEX_SHARED="$(cd ../shared && pwd)"
fi
export CITYINDEX_SHARED="${CITYINDEX_SHARED:-}"
echo "CITYINDEX_SHARED=${CITYINDEX_SHARED:-(not set: tests on the shared data are skipped)}" >&2
swift build -c release
swift test -c release "$@"
