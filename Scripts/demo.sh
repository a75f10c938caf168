#!/usr/bin/env bash
# The main job in one go: installs missing C libraries, builds the tools, compiles the embedded
# default dataset (Data/cities500.json.xz) into cities.cidx, and runs a search as a search box
# does (city-search's default: words, population, typos) and SEARCH.md's exact prefix search.
#
#   Scripts/demo.sh [BOX_QUERY] [PREFIX_QUERY]   (default: "pheonix" and "san jo")
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build -c release --product build-index
swift build -c release --product city-search
.build/release/build-index -o cities.cidx
.build/release/city-search --index cities.cidx --limit 5 "${1:-pheonix}"
echo
.build/release/city-search --index cities.cidx --match prefix --order alphabetical --typos 0 --limit 5 "${2:-san jo}"
