#!/usr/bin/env bash
# The main job: installs missing C libraries, builds the tools, compiles the embedded default
# dataset (Data/cities500.json.xz) into cities.cidx, and runs a sample search (SEARCH.md prefix)
# and a word search ranked by population.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build -c release --product build-index
swift build -c release --product city-search
.build/release/build-index -o cities.cidx
.build/release/city-search --index cities.cidx --limit 5 "${1:-san jo}"
echo
.build/release/city-search --index cities.cidx --match words --order population --limit 5 "${2:-york}"
