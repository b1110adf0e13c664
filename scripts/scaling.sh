#!/usr/bin/env bash
# Parallel scaling of big searches: each search is run with 1, 2, 4, ... threads up to every
# core (and the core count itself), one level per command, and results/scaling.csv gets one row
# per run: search, threads, wall_ms (the level's own time, from the CLI), states, states_per_s,
# speedup over one thread, peak_rss_mib (of the whole process, by /usr/bin/time when present).
#
#   scripts/scaling.sh                 # every search, every thread count
#   THREADS="1 2" scripts/scaling.sh   # chosen thread counts
#   ONLY="fifteen h49" scripts/scaling.sh   # chosen searches
#   OUT=/tmp/scaling.csv scripts/scaling.sh
#   FRONTIER_BIN=path/to/frontier scripts/scaling.sh   # a binary built elsewhere (no cargo here)
#
# The searches (5-50 million states each; `--timeout none`, since one thread takes longer than
# the default 30 s budget on some):
# - fifteen: a 4x4 sliding-tile puzzle of 15 distinct blocks (benches/levels/fifteen.txt),
#   bidirectional BFS stopped by --max-states 20000000 (24.6 million states);
# - h49: Ice Tower H-49 (corpora/official/ice-tower/qits.txt): the first beam, then A* stopped
#   by --max-states 10000000 (16.6 million with the beam's; --anytime 0: no search for a solution after the
#   stop);
# - bender-balls: a Bender map of ours (benches/levels/bender-balls.txt): an open room with six
#   balls and Fry behind two balls jammed in his corridor, so the route search with pushes
#   (A*) never ends; stopped by --max-states 20000000 (about 20.5 million).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-results/scaling.csv}
cores=$(nproc)
if [ -z "${THREADS:-}" ]; then
    THREADS=""
    for ((t = 1; t < cores; t *= 2)); do THREADS="$THREADS $t"; done
    THREADS="$THREADS $cores"
fi
if [ -n "${FRONTIER_BIN:-}" ]; then
    bin=$FRONTIER_BIN
else
    cargo build --release --quiet
    bin=target/release/frontier
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# H-49 alone, out of the official Ice Tower file qits.txt (the level ends at the next blank line).
awk '/^level h49$/ { on = 1 } on && /^$/ { exit } on' corpora/official/ice-tower/qits.txt \
    >"$work/h49.txt"
[ -s "$work/h49.txt" ] || { echo "scaling: H-49 not found in corpora/official/ice-tower/qits.txt" >&2; exit 2; }

searches=(
    "fifteen|--game sliding-blocks --timeout none --max-states 20000000 benches/levels/fifteen.txt"
    "h49|--game ice-tower --timeout none --max-states 10000000 --anytime 0 $work/h49.txt"
    "bender-balls|--game bender4 --timeout none --max-states 20000000 benches/levels/bender-balls.txt"
)

echo "search,threads,wall_ms,states,states_per_s,speedup,peak_rss_mib" >"$work/scaling.csv"
for entry in "${searches[@]}"; do
    name=${entry%%|*}
    [[ " ${ONLY:-$name} " == *" $name "* ]] || continue
    read -r -a args <<<"${entry#*|}"
    base=""
    for t in $THREADS; do
        rss=""
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f %M -o "$work/rss" "$bin" solve --quiet --parallel-levels 1 \
                --threads "$t" --out "$work/row.csv" "${args[@]}" || [ $? -eq 1 ]
            rss=$(($(tail -1 "$work/rss") / 1024))
        else
            "$bin" solve --quiet --parallel-levels 1 --threads "$t" --out "$work/row.csv" \
                "${args[@]}" || [ $? -eq 1 ]
        fi
        # The row's states (column 7) and millis (column 9); no solution field comes first.
        IFS=, read -r _ _ _ _ _ _ states _ millis _ < <(sed -n 2p "$work/row.csv")
        base=${base:-$millis}
        awk -v n="$name" -v t="$t" -v ms="$millis" -v s="$states" -v b="$base" -v r="$rss" \
            'BEGIN { printf "%s,%d,%.0f,%d,%.0f,%.2f,%s\n", n, t, ms, s, s / (ms / 1000), b / ms, r }' \
            | tee -a "$work/scaling.csv"
    done
done
mkdir -p "$(dirname "$out")"
cp "$work/scaling.csv" "$out.tmp" && mv "$out.tmp" "$out"
echo "scaling: $out"
