#!/usr/bin/env bash
# `swift build` for a package that depends on this checkout's Sources/ by path (Server/,
# Benchmarks/, Examples/): when a file under Sources/ was moved or removed since its last build
# (a `git pull` across a release that moved files), SwiftPM keeps its old build plan and fails
# with "missing inputs". This builds once, and on that failure removes the plan and builds again.
# The build's output is shown as it comes (standard error joined to standard output); when the
# build fails, its output is repeated on standard error, so that a caller that silences
# standard output still shows why.
#
# Usage: Scripts/swift-build.sh PACKAGE_DIR [swift build arguments...]
set -euo pipefail
package="$1"
shift
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
build() { (cd "$package" && swift build "$@") 2>&1 | tee "$log"; }
if build "$@"; then exit 0; fi
if grep -q "missing inputs" "$log"; then
    echo "swift-build.sh: $package's build plan names files that are gone; planning it again" >&2
    rm -f "$package"/.build/*.yaml
    if build "$@"; then exit 0; fi
fi
echo "swift-build.sh: the build of $package failed:" >&2
cat "$log" >&2
exit 1
