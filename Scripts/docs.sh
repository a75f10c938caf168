#!/usr/bin/env bash
# Builds the DocC documentation of every library (CityIndex, CityIndexArtifacts, CityIndexBuilder,
# CitySearchKit, CityJSON) with swift-docc-plugin, treating
# every warning as an error, into .build/plugins/Swift-DocC/outputs/*.doccarchive.
# Preview one with: swift package --disable-sandbox preview-documentation --target CityIndex
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
for target in CityIndex CityIndexArtifacts CityIndexBuilder CitySearchKit CityJSON; do
    rm -rf ".build/plugins/Swift-DocC/outputs/$target.doccarchive"
    swift package --disable-sandbox generate-documentation --target "$target" --warnings-as-errors 2>&1 \
        | grep -v '^\[\|^Building\|^Build of\|Compiling' || true
    test -d ".build/plugins/Swift-DocC/outputs/$target.doccarchive" || { echo "documentation of $target failed" >&2; exit 1; }
done
