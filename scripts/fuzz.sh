#!/usr/bin/env bash
# Fuzzes every parser for a while (tests/fuzz.rs with FUZZ_SECONDS): the five level formats,
# the five solution notations and the results CSV reader, PER_PARSER seconds each (default
# 600), split evenly over the parser's properties; JOBS parsers at a time (default 2). Prints
# one line per property (cases tried) and a table at the end. A failure prints proptest's
# smallest failing input and makes the script exit 1.
#
#   scripts/fuzz.sh                         # 10 minutes per parser
#   PER_PARSER=30 JOBS=1 scripts/fuzz.sh    # a quick pass
set -uo pipefail
cd "$(dirname "$0")/.."
per_parser=${PER_PARSER:-600}
jobs=${JOBS:-2}
cargo test --release --test fuzz --no-run --quiet || exit 2
log=$(mktemp -d)
# parser (a substring of its properties' names) | properties
parsers=(
    "sliding-blocks levels|3"
    "golf-peaks levels|2"
    "puzzle-quest levels|2"
    "ice-tower levels|2"
    "bender4 levels|2"
    "sliding-blocks notation|1"
    "golf-peaks notation|1"
    "puzzle-quest notation|2"
    "ice-tower notation|2"
    "bender4 notation|1"
    "results csv|3"
)
run() {
    local parser=${1%|*} properties=${1#*|}
    FUZZ_ONLY=$parser FUZZ_SECONDS=$((per_parser / properties)) \
        cargo test --release --quiet --test fuzz -- --nocapture --test-threads 1 \
        >"$log/${parser// /-}.log" 2>&1
    echo "$? $parser" >>"$log/status"
}
for entry in "${parsers[@]}"; do
    while [ "$(jobs -r | wc -l)" -ge "$jobs" ]; do sleep 1; done
    run "$entry" &
done
wait
status=0
printf '%-26s %8s %12s  %s\n' parser seconds cases failures
for entry in "${parsers[@]}"; do
    parser=${entry%|*}
    file="$log/${parser// /-}.log"
    cases=$(grep -o 'fuzz .*: [0-9]* cases' "$file" | awk '{s += $(NF-1)} END {print s + 0}')
    seconds=$(grep -o 'cases in [0-9]* s' "$file" | awk '{s += $3} END {print s + 0}')
    rc=$(grep " $parser\$" "$log/status" | cut -d' ' -f1)
    failures=$([ "$rc" = 0 ] && echo 0 || echo "see $file")
    [ "$rc" = 0 ] || status=1
    printf '%-26s %8s %12s  %s\n' "$parser" "$seconds" "$cases" "$failures"
done
exit $status
