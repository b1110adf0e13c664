#!/usr/bin/env bash
# Is this build slower, or are its answers worse, than the build that made results/baselines/?
#
# Both builds are measured here and now, taking turns: the baselines' commit (from their
# provenance) is built beside this tree, then every level of every set of scripts/sets.sh is
# solved ROUNDS times by each build, each run a process of its own, the two builds alternating
# level by level (A B, then B A, ...), so that both see the same seconds of a shared machine's
# load (alternating whole sets, a minute apart, let load that changed within the minute reach
# one build more than the other). Each side's runs of a set go to a folder (a subfolder per
# round, a CSV per level), which `frontier compare` reads as one run (each level's median time
# and the range of all its runs; src/harness/runs.rs): a worse answer, more states, or a time
# beyond the tolerance with its runs apart from the baseline's is a regression (exit 1). Ends
# with one report page of every set's before/after.
#
#   scripts/regression-check.sh [frontier compare options, e.g. --time-tolerance 1.5]
#   ROUNDS=5 scripts/regression-check.sh      # runs per build and level (default 3)
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/sets.sh
rounds=${ROUNDS:-3}
fresh=$(mktemp -d)
cargo build --release --quiet || exit 2

# The baselines' build: their commit, checked out in a worktree of its own under target/ and
# built there (kept, so that the next check rebuilds nothing); the same binary when this tree is
# that commit, unchanged.
commit=$(sed -n 's/^  "commit": "\([0-9a-f]*\).*",$/\1/p' results/baselines/corpora.csv.json)
if [ -z "$commit" ] || ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "regression-check: the baselines' commit '$commit' (results/baselines/corpora.csv.json) is not in this repository" >&2
    exit 2
fi
mkdir -p "$fresh/bin"
if [ "$(git rev-parse HEAD)" = "$(git rev-parse "$commit")" ] && git diff --quiet HEAD; then
    cp target/release/frontier "$fresh/bin/baseline"
else
    echo "== building the baselines' commit $commit"
    base=target/regression-baseline
    git worktree prune
    if [ -e "$base/src/.git" ]; then
        git -C "$base/src" checkout --quiet --detach "$commit" || exit 2
    else
        git worktree add --quiet --detach "$base/src" "$commit" || exit 2
    fi
    CARGO_TARGET_DIR=$PWD/$base/target cargo build --release --quiet \
        --manifest-path "$base/src/Cargo.toml" || exit 2
    cp "$base/target/release/frontier" "$fresh/bin/baseline"
fi
cp target/release/frontier "$fresh/bin/new"

# A glob that matches exactly `name`: what every build's `--level` reads (`--level =NAME` is
# newer than some baselines). Glob characters go in brackets, and so does the first letter or
# digit, which makes the pattern a glob (over the whole name) rather than a substring.
exact_glob() {
    local name=$1 glob="" c i bracketed=0
    for ((i = 0; i < ${#name}; i++)); do
        c=${name:i:1}
        case $c in
            '[' | ']' | '*' | '?') glob+="[$c]" bracketed=1 ;;
            [[:alnum:]])
                if [ $bracketed -eq 0 ]; then glob+="[$c]" bracketed=1; else glob+=$c; fi ;;
            *) glob+=$c ;;
        esac
    done
    printf '%s' "$glob"
}

status=0
round=0
solve_set() {
    local name=$1
    shift
    local levels level k=0
    # A name that two games share (own corpora: `unsolvable`) is one run of both levels.
    mapfile -t levels < <("$fresh/bin/new" solve --list "$@" | awk '!seen[$0]++')
    [ ${#levels[@]} -gt 0 ] || status=2
    for level in "${levels[@]}"; do
        local order="baseline new"
        [ $(((round + k) % 2)) -eq 1 ] && order="new baseline"
        for side in $order; do
            mkdir -p "$fresh/$side/$name/$round"
            "$fresh/bin/$side" solve --quiet --parallel-levels 1 --level "$(exact_glob "$level")" \
                --out "$fresh/$side/$name/$round/$(printf %04d $k).csv" "$@"
            # Exit status 1 means the level ended `limit` or `error`; the CSV is still complete.
            [ $? -le 1 ] || status=2
        done
        k=$((k + 1))
    done
}
while [ $round -lt "$rounds" ]; do
    echo "== round $((round + 1)) of $rounds"
    for_each_set solve_set
    round=$((round + 1))
done

compare_set() {
    "$fresh/bin/new" compare "${options[@]}" "$fresh/baseline/$1" "$fresh/new/$1" || [ $status -eq 2 ] || status=1
}
options=("$@")
# A level alone in its process is timed cold (a fresh thread pool and heap): a capture board of
# 2 ms in a batch takes 20-33 ms so, and varies by a third between runs. Levels under 50 ms are
# therefore judged together (their sum), unless the caller says otherwise: two checks of an
# unchanged build each called one 25 ms level x1.26-1.29 slower, and 15 pairs of it x1.03.
[[ " $* " == *" --small-millis"* ]] || options+=(--small-millis 50)
for_each_set compare_set
# One page: the summary of every set against the baseline build on top, then each before/after.
"$fresh/bin/new" report --baseline "$fresh/baseline" --out "$fresh/report.html" "$fresh"/new/* 2>/dev/null
echo "the runs of both builds and the report ($fresh/report.html) are in $fresh"
exit $status
