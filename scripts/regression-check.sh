#!/usr/bin/env bash
# Solves every corpus afresh as the baselines were made (scripts/baselines.sh: one level at a
# time, REPEAT runs each) and compares each result with its baseline in results/baselines/:
# exit 1 when any level regressed (worse answer, more states, slower beyond the tolerance with
# its range of times apart from the baseline's). Ends with one report page of every game.
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
# One page: the summary of every game against its baseline on top, then each set's before/after.
"$bin" report --baseline results/baselines --out "$fresh/report.html" "$fresh"/*.csv 2>/dev/null
echo "fresh results and the report ($fresh/report.html) are in $fresh"
exit $status
