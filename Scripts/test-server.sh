#!/usr/bin/env bash
# city-server's tests (issue 45): its router and index-replacement tests (Server/Tests, with
# HummingbirdTesting), the page in a real browser (Debian's chromium driven by playwright,
# offline: Server/Tests/browser/page_test.py, screenshots in Server/.build/page-test/), its
# connection limits over raw sockets and a flood of costly searches (Server/Tests/live), and a short load run under wrk
# (Scripts/load-server.sh --smoke). Installs chromium, wrk and
# playwright when they are missing (Debian's packages and PyPI; no browser is downloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
Scripts/install-dependencies.sh
missing=()
command -v chromium > /dev/null || missing+=(chromium)
command -v wrk > /dev/null || missing+=(wrk)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" > /dev/null
fi
python3 -c "import playwright" 2> /dev/null || python3 -m pip install -q playwright
swift build -c release --product build-index > /dev/null
Scripts/swift-build.sh Server -c release --build-tests > /dev/null
(cd Server && swift test -c release --skip-build)
output=Server/.build/page-test
mkdir -p "$output"
.build/release/build-index -o "$output/cities.cidx" --quiet
python3 Server/Tests/browser/page_test.py Server/.build/release/city-server "$output/cities.cidx" "$output"
python3 Server/Tests/live/connection_limits_test.py Server/.build/release/city-server "$output/cities.cidx"
# Bodies trickled or blasted, descriptors exhausted, SIGTERM with pipelined searches (about 30 s).
python3 Server/Tests/live/connection_attacks_test.py Server/.build/release/city-server "$output/cities.cidx"
# The served file truncated in place: 503 until a valid index is renamed over it (about 20 s).
python3 Server/Tests/live/damage_test.py Server/.build/release/city-server "$output/cities.cidx"
# --host and --check-interval (about 10 s).
python3 Server/Tests/live/options_test.py Server/.build/release/city-server "$output/cities.cidx"
# A flood of the costliest searches for 10 s: /health p99 within 50 ms, ordinary searches answered.
python3 Server/Tests/live/flood_test.py Server/.build/release/city-server "$output/cities.cidx" 10 8
Scripts/load-server.sh --smoke
echo "city-server's tests passed in $((SECONDS - started)) s"
