#!/usr/bin/env bash
# Makes a board's table of hardest sliding-block puzzles (`frontier generate sliding-blocks`)
# one piece count at a time, in runs that add up across sessions and stops.
#
#   scripts/generate-table.sh BOARD FIRST LAST     e.g. scripts/generate-table.sh 4x5 1 19
#
# Each piece count is its own run, `--out results/generated/BOARD/pN.tsv`, with the journal
# beside it: a run stopped by anything (Ctrl-C, kill -9, the end of a session) goes on from its
# journal when this script is run again. A count whose pN.tsv exists is finished and skipped.
# To carry an unfinished count to another checkout, commit its journal gzipped
# (pN.tsv.journal.gz): it is unpacked before the run goes on. The journal of another build is
# accepted (`--resume-any-build`): a unit's answer does not depend on the build.
#
# Every run, finished or not, adds a line to results/generated/BOARD/runs.tsv: the count, when
# it started, the checkout's commit, its exit status, wall seconds and peak RSS (KiB); a
# count's wall time over several runs is their sum, its peak the largest. After each finished
# count, the finished counts are joined into corpora/sliding-blocks/hardest-BOARD.tsv, the
# level file that `frontier solve` reads, one row per piece count.
#
# Environment: FRONTIER (the binary, default target/release/frontier), NICE (niceness of the
# runs, default 10, so that builds on the same machine come first), THREADS (--threads,
# default all cores).
set -euo pipefail

usage="usage: scripts/generate-table.sh BOARD FIRST LAST"
board=${1:?$usage}
first=${2:?$usage}
last=${3:?$usage}
frontier=${FRONTIER:-target/release/frontier}
dir=results/generated/$board
table=corpora/sliding-blocks/hardest-$board.tsv
mkdir -p "$dir"
runs=$dir/runs.tsv
[[ -s $runs ]] || printf 'pieces\tstarted\tcommit\tstatus\twall_s\tpeak_kib\n' >"$runs"
commit=$(git describe --always --dirty 2>/dev/null || echo unknown)
threads=()
[[ -n ${THREADS:-} ]] && threads=(--threads "$THREADS")

# One header, then every finished count's row, by piece count; written whole.
assemble() {
    local finished
    finished=$(ls "$dir"/p*.tsv | sort -V)
    {
        head -1 "$(echo "$finished" | head -1)"
        for f in $finished; do tail -n +2 "$f"; done
    } >"$table.tmp"
    mv "$table.tmp" "$table"
}

for pieces in $(seq "$first" "$last"); do
    out=$dir/p$pieces.tsv
    [[ -e $out ]] && continue
    if [[ -e $out.journal.gz && ! -e $out.journal ]]; then
        gunzip -k "$out.journal.gz"
    fi
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    status=0
    nice -n "${NICE:-10}" /usr/bin/time -f '%e\t%M' -o "$dir/.time" \
        "$frontier" generate sliding-blocks --board "$board" --pieces "$pieces" --quiet \
        --resume-any-build "${threads[@]}" --out "$out" || status=$?
    # time(1) puts "Command exited with non-zero status N" before its figures.
    printf '%s\t%s\t%s\t%s\t%s\n' "$pieces" "$started" "$commit" "$status" \
        "$(tail -1 "$dir/.time")" >>"$runs"
    rm -f "$dir/.time"
    if [[ $status != 0 ]]; then
        echo "generate-table: $board at $pieces pieces stopped (exit $status); run again to go on" >&2
        exit "$status"
    fi
    rm -f "$out.journal.gz"
    assemble
    echo "generate-table: $board at $pieces pieces done; $table has $(($(wc -l <"$table") - 1)) rows"
done
