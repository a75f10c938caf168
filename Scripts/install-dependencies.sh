#!/usr/bin/env bash
# Installs what building and testing need when it is missing: the C libraries the builder
# links (zlib and liblzma headers) and tmux (the interactive search is tested in a real terminal).
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: both come with the system SDK.
set -euo pipefail
if [ "$(uname)" = "Darwin" ]; then exit 0; fi
missing=()
for package in zlib1g-dev liblzma-dev tmux; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
