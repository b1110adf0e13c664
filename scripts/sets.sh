# The sets of levels the baselines and the regression check solve, with their options; sourced
# by scripts/baselines.sh and scripts/regression-check.sh, which pass the name of a function
# that is called as `FUNCTION NAME SOLVE-ARGS...` for each set. `corpora` is the repository's
# own levels; the official sets are under corpora/official/.

for_each_set() {
    local each=$1
    "$each" corpora corpora/bender4 corpora/golf-peaks corpora/ice-tower corpora/puzzle-quest \
        corpora/sliding-blocks
    "$each" official-golf-peaks "corpora/official/golf-peaks"
    "$each" official-sliding-blocks "corpora/official/sliding-blocks/layton-puzzles.tsv"
    "$each" official-puzzle-quest "corpora/official/puzzle-quest/capture-boards.txt"
    # H-49 has no proven optimum; the timeout bounds its A*, and --anytime 0 keeps its answer
    # the first beam's (the same on every run; wider beams within a time budget would depend
    # on load).
    "$each" official-ice-tower --timeout 30 --anytime 0 "corpora/official/ice-tower"
    "$each" official-bender4 "corpora/official/bender4"
}
