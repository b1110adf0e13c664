#!/usr/bin/env bash
# Solves every corpus afresh and compares each result with its baseline in results/baselines/:
# exit 1 when any level regressed (worse answer, more states, slower beyond the tolerance).
#
#   scripts/regression-check.sh [frontier compare options, e.g. --time-tolerance 1.5]
set -uo pipefail
cd "$(dirname "$0")/.."
fresh=$(mktemp -d)
OUT=$fresh scripts/baselines.sh || exit 2
bin=target/release/frontier
status=0
for base in results/baselines/*.csv; do
    name=$(basename "$base")
    "$bin" compare "$@" "$base" "$fresh/$name" || status=1
done
"$bin" report --out "$fresh/report.html" results/baselines/official-sliding-blocks.csv "$fresh/official-sliding-blocks.csv" >/dev/null 2>&1
echo "fresh results and a before/after report are in $fresh"
exit $status
