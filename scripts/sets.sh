# The sets of levels the baselines and the regression check solve, with their options; sourced
# by scripts/baselines.sh and scripts/regression-check.sh, which pass the name of a function
# that is called as `FUNCTION NAME SOLVE-ARGS...` for each set.
shared=${SHARED:-../shared}

for_each_set() {
    local each=$1
    "$each" corpora corpora
    "$each" official-golf-peaks "$shared/corpora/golf-peaks/official"
    "$each" official-sliding-blocks "$shared/corpora/sliding-blocks/layton-puzzles.tsv"
    "$each" official-puzzle-quest "$shared/corpora/puzzle-quest/capture-boards.txt"
    # H-49 has no proven optimum; the timeout bounds its A*, and --anytime 0 keeps its answer
    # the first beam's (the same on every run; wider beams within a time budget would depend
    # on load).
    "$each" official-ice-tower --timeout 30 --anytime 0 "$shared/corpora/ice-tower"
    "$each" official-bender4 "$shared/corpora/bender4"
}
