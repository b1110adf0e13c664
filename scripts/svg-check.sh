#!/usr/bin/env bash
# Plays animated SVGs (`frontier show --svg`) in headless Chromium with networking disabled and
# screenshots each at two moments of virtual time; an animation whose two pictures are the same
# does not play, and the script exits 1. Chromium comes from Debian's packages if missing. Not
# part of `cargo test` (CI has only Rust).
#
#   scripts/svg-check.sh [--times EARLY,LATE] A.svg [B.svg ...]
#
# The screenshots are written beside each file as NAME.EARLY.png and NAME.LATE.png (virtual
# milliseconds; default 300 and 2600: the first frame, then a few moves in).
set -euo pipefail
times=300,2600
if [[ ${1:-} == --times ]]; then
    times=$2
    shift 2
fi
IFS=, read -r early late <<<"$times"
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [--times EARLY,LATE] A.svg [B.svg ...]" >&2
    exit 2
fi
if ! command -v chromium >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
# The size of an SVG from its root element, so that the screenshot holds all of it.
size() {
    sed -n '1s/.*<svg[^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$1"
}
shot() { # FILE MILLIS PNG
    local profile
    profile=$(mktemp -d)
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --proxy-server=127.0.0.1:9 --user-data-dir="$profile" --hide-scrollbars \
        --window-size="$(size "$1")" --virtual-time-budget="$2" --screenshot="$3" \
        "file://$(realpath "$1")" 2>/dev/null
    rm -rf "$profile"
}
status=0
for svg in "$@"; do
    base=${svg%.svg}
    shot "$svg" "$early" "$base.$early.png"
    shot "$svg" "$late" "$base.$late.png"
    if cmp -s "$base.$early.png" "$base.$late.png"; then
        echo "STILL: $svg looks the same at $early ms and $late ms"
        status=1
    else
        echo "plays: $svg ($base.$early.png and $base.$late.png differ)"
    fi
done
exit $status
