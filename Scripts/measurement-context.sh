# Sourced (not run) by the measurement scripts: what they share about inputs, machine and
# revision, and the alternating rounds of the two comparison scripts.
#
#   default_inputs     sets `inputs` to Data/cities500.json.xz and, when $CITYINDEX_SHARED holds
#                      it, the 209,557-city list
#   machine            "x86_64 Linux, 2 cores, 23 GiB, Swift 6.3.1": for a report's header
#   checkout_label     this checkout's short revision, "+changes" when Sources/ differs from it
#   comparison_arguments SCRIPT [BASE [ROUNDS]]
#                      for the comparison scripts: sets `base` (a revision, required: else
#                      SCRIPT's usage and exit 64) and `rounds` (default 5), checks that `base`
#                      names a commit, installs what the builds need and sets `work` to .compare
#   extract_revision REVISION DIR
#                      replaces DIR with the tree of REVISION (git archive)
#   build_harnesses    builds Benchmarks' ScaleQueries over this checkout's reader and over
#                      `base`'s (this checkout's harness, copied into $work/base), and
#                      build-index; sets `new` and `old` to the two harnesses, `bin` to
#                      build-index's folder
#   alternate_rounds NAME ROUNDS TIME_SIDE
#                      for each round, calls TIME_SIDE base ROUND and TIME_SIDE new ROUND, the
#                      new side first in even rounds (so neither side always runs on a cooler
#                      VM), with a progress line on standard error

default_inputs() {
    inputs=(Data/cities500.json.xz)
    if [ -n "${CITYINDEX_SHARED:-}" ] && [ -f "$CITYINDEX_SHARED/data/cities.json.xz" ]; then
        inputs+=("$CITYINDEX_SHARED/data/cities.json.xz")
    fi
}

machine="$(uname -m) Linux, $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(swift --version 2>&1 | head -1 | sed 's/.*Swift version \([0-9.]*\).*/Swift \1/')"

checkout_label() {
    echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources || echo '+changes')"
}

comparison_arguments() {
    local script="$1"
    base="${2:?usage: $script BASE [ROUNDS]}"
    rounds="${3:-5}"
    git rev-parse --verify --quiet "$base^{commit}" > /dev/null || { echo "unknown revision: $base" >&2; exit 64; }
    Scripts/install-dependencies.sh
    work=.compare
}

extract_revision() {
    rm -rf "$2"
    mkdir -p "$2"
    git archive "$1" | tar -x -C "$2"
}

build_harnesses() {
    extract_revision "$base" "$work/base"
    # The same harness for both: this checkout's Benchmarks package over the base revision's reader.
    rm -rf "$work/base/Benchmarks"
    tar -c --exclude=.build --exclude=Package.resolved Benchmarks | tar -x -C "$work/base"
    echo "building the reader of $base and of this checkout..." >&2
    swift build -c release --product build-index > /dev/null
    Scripts/swift-build.sh Benchmarks -c release --product ScaleQueries > /dev/null
    (cd "$work/base/Benchmarks" && swift build -c release --product ScaleQueries > /dev/null)
    new="$(cd Benchmarks && swift build -c release --show-bin-path)/ScaleQueries"
    old="$(cd "$work/base/Benchmarks" && swift build -c release --show-bin-path)/ScaleQueries"
    bin="$(swift build -c release --show-bin-path)"
}

alternate_rounds() {
    local name="$1" rounds="$2" time_side="$3" round side order
    for round in $(seq "$rounds"); do
        echo "$name: round $round of $rounds" >&2
        order=(base new)
        [ $((round % 2)) -eq 0 ] && order=(new base)
        for side in "${order[@]}"; do "$time_side" "$side" "$round"; done
    done
}
