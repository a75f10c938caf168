#!/usr/bin/env bash
# Puts build-index, city-search and city-server on the PATH: installs missing C libraries,
# builds the three tools in release mode (on 2 cores, about 2.5 minutes for the two tools and
# 7 to 8 more for the server the first time; seconds after that), then links each into a
# directory of the PATH. The links point into this checkout's .build folders (city-server
# finds its page there): run it again after pulling, and keep the checkout.
#
#   Scripts/install.sh [--bin DIR] [--no-server]
#   --bin DIR     where the links go. Default: /usr/local/bin when it is writable, else
#                 ~/.local/bin (created; the script says so when that is not on the PATH).
#   --no-server   build and link only build-index and city-search.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
bin=""
server=1
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="${2:?--bin needs a directory}"; shift 2 ;;
        --no-server) server=0; shift ;;
        *) echo "install.sh: unknown argument '$1' (usage: Scripts/install.sh [--bin DIR] [--no-server])" >&2; exit 64 ;;
    esac
done
if [ -z "$bin" ]; then
    if [ -w /usr/local/bin ]; then bin=/usr/local/bin; else bin="$HOME/.local/bin"; fi
fi
mkdir -p "$bin"
Scripts/install-dependencies.sh
echo "building build-index and city-search (release)" >&2
swift build -c release --product build-index
swift build -c release --product city-search
tools=("$root/.build/release/build-index" "$root/.build/release/city-search")
if [ "$server" = 1 ]; then
    echo "building city-server (release)" >&2
    Scripts/swift-build.sh Server -c release --product city-server
    tools+=("$root/Server/.build/release/city-server")
fi
for tool in "${tools[@]}"; do
    ln -sfn "$tool" "$bin/$(basename "$tool")"
    echo "linked $bin/$(basename "$tool") -> $tool" >&2
done
case ":$PATH:" in
    *":$bin:"*) ;;
    *) echo "note: $bin is not on your PATH; add it: export PATH=\"$bin:\$PATH\"" >&2 ;;
esac
