#!/usr/bin/env bash
# Type-checks the code paths of CityIndexArtifacts that only Apple platforms compile (Apple's
# Compression framework instead of zlib and liblzma), here on Linux, against the
# declaration-only interface in Scripts/darwin-typecheck/. It proves the Apple code is
# well-typed against the framework's documented C interface; it does not run it. There is no
# Apple toolchain on the machines this package is developed and tested on.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --target CityIndex >/dev/null
modules="$(swift build -c release --show-bin-path)/Modules"
sources=$(find Sources/CityIndexArtifacts -name '*.swift' | sort)
# With the stub on the include path, canImport(Compression) is true: the Apple files are
# compiled and the zlib/liblzma files are not.
swiftc -typecheck -swift-version 6 -module-name CityIndexArtifacts -package-name "$(basename "$PWD" | tr "[:upper:]" "[:lower:]")" \
    -I "$modules" -I Scripts/darwin-typecheck -I Sources/CMappedFileGuard/include -I Sources/CCacheHints/include $sources
echo "CityIndexArtifacts type-checks with Apple's Compression interface"
