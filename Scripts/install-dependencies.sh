#!/usr/bin/env bash
# Installs what building and testing need when it is missing.
#
# Linux (Debian/Ubuntu, apt-get as root or through sudo): the zlib and liblzma headers, which
# CityIndexArtifacts links for gzip and xz, the libcurl headers, which CitySearchKit's
# IndexStore downloads with (FoundationNetworking's URLSession keeps a core busy while a server
# is silent), tmux (the interactive search is tested in a real terminal), and openssl and
# python3 (the download tests run a loopback https server with certificates made on the spot).
#
# macOS: nothing to install for building. On Apple platforms CityIndexArtifacts uses Apple's
# Compression framework and links neither zlib nor liblzma, so no Homebrew package is needed
# (and none is shipped inside an app). The interactive-search test needs tmux
# (`brew install tmux`); without it that test is reported as skipped. The Apple code
# paths are type-checked on Linux (Scripts/typecheck-darwin.sh) but were never built on a Mac
# by this project's CI, which has no Apple toolchain.
set -euo pipefail
if [ "$(uname)" = "Darwin" ]; then
    command -v tmux >/dev/null || echo "note: tmux is missing (brew install tmux); the interactive-search test needs it" >&2
    exit 0
fi
missing=()
for package in zlib1g-dev liblzma-dev libcurl4-openssl-dev tmux openssl python3; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
