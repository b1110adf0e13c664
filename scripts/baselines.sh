#!/usr/bin/env bash
# Regenerates every baseline results CSV: the repository's own corpora
# (results/baselines/corpora.csv) and each official set under corpora/official
# (results/baselines/official-<game>.csv), the sets listed in scripts/sets.sh, and the counted
# benchmarks' instructions (results/baselines/counts.csv, scripts/count.sh). They live
# apart from results/<name>.csv, which `frontier solve` writes by default, so that an ordinary
# run never overwrites a baseline.
#
#   scripts/baselines.sh                # write into results/baselines/
#   OUT=/tmp/new scripts/baselines.sh   # write elsewhere
#   REPEAT=5 scripts/baselines.sh       # runs per level (default 3)
#
# Levels are solved one at a time (each with every core), so each row's time is its own, and
# REPEAT times each: the CSV gives the median and the range. Each CSV has its provenance beside
# it (NAME.csv.json), whose commit is the build scripts/regression-check.sh times this one
# against.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/sets.sh
out=${OUT:-results/baselines}
repeat=${REPEAT:-3}
mkdir -p "$out"
cargo build --release --quiet || exit 2
bin=target/release/frontier
status=0
run() {
    local name=$1
    shift
    echo "== $name"
    "$bin" solve --quiet --parallel-levels 1 --repeat "$repeat" --out "$out/$name.csv" "$@"
    local rc=$?
    # Exit status 1 means some level ended `limit` or `error`; the CSV is still complete.
    [ $rc -le 1 ] || status=$rc
    [ $rc -eq 0 ] || echo "   ($name: some levels ended limit or error, see the CSV)"
}
for_each_set run
# The counted benchmarks' instructions (scripts/count.sh), with this commit, CPU model and
# Valgrind in counts.csv.json: scripts/regression-check.sh reads them instead of building and
# counting this commit again, where they are comparable.
echo "== counts"
scripts/count.sh --out "$out/counts.csv" || status=2
exit $status
