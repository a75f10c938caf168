#!/usr/bin/env bash
# Builds city-server and serves Data/'s cities at http://127.0.0.1:8080/ (the page and the API):
# builds the index (cities.cidx, as Scripts/demo.sh does) when it is missing or this build's
# reader refuses it (an older format), then runs the
# server in the foreground until Ctrl-C. Arguments go to city-server (e.g. --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build -c release --product build-index
swift build -c release --product city-search
if ! .build/release/city-search --index cities.cidx --inspect > /dev/null 2>&1; then
    .build/release/build-index -o cities.cidx
fi
Scripts/swift-build.sh Server -c release --product city-server
exec Server/.build/release/city-server --index cities.cidx "$@"
