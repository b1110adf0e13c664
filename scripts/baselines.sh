#!/usr/bin/env bash
# Regenerates every baseline results CSV: the repository's own corpora
# (results/baselines/corpora.csv) and each official corpus under ../shared/corpora
# (results/baselines/official-<game>.csv). They live apart from results/<name>.csv, which
# `frontier solve` writes by default, so that an ordinary run never overwrites a baseline.
#
#   scripts/baselines.sh                # write into results/baselines/
#   OUT=/tmp/new scripts/baselines.sh   # write elsewhere (e.g. to compare against the baselines)
#   REPEAT=5 scripts/baselines.sh       # runs per level (default 3)
#
# Levels are solved one at a time (each with every core), so each row's time is its own, and
# REPEAT times each: the CSV gives the median and the range, which `frontier compare` uses so
# that noise on a shared machine is not called a regression. Each CSV has its provenance
# beside it (NAME.csv.json).
set -uo pipefail
cd "$(dirname "$0")/.."
shared=${SHARED:-../shared}
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
run corpora corpora
run official-golf-peaks "$shared/corpora/golf-peaks/official"
run official-sliding-blocks "$shared/corpora/sliding-blocks/layton-puzzles.tsv"
run official-puzzle-quest "$shared/corpora/puzzle-quest/capture-boards.txt"
# H-49 has no proven optimum; the timeout bounds its A*, and --anytime 0 keeps its answer the
# first beam's (the same on every run; wider beams within a time budget would depend on load).
run official-ice-tower --timeout 30 --anytime 0 "$shared/corpora/ice-tower"
run official-bender4 "$shared/corpora/bender4"
exit $status
