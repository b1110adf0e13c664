#!/usr/bin/env bash
# Is this build slower, or are its answers worse, than the build that made results/baselines/?
#
# By default it counts: the instructions of every counted benchmark (benches/counted.rs,
# scripts/count.sh) for the baselines' build and for this one, under Valgrind, which counts the
# same on a busy machine as on an idle one. A benchmark whose count is more than COUNT_TOLERANCE
# (default 0.015: 1.5%) above the baseline's, or whose answer or states differ, is a regression
# (exit 1); each benchmark's count ratio (new/baseline) is printed. The baselines' counts are
# read from results/baselines/counts.csv when they were counted for the baselines' commit, on
# this CPU model, by this Valgrind and this benchmark program (its sidecar counts.csv.json
# says); otherwise that commit is built and counted here (COUNT_BASELINE=1 always does).
#
#   scripts/regression-check.sh                          # counts (a few minutes)
#   COUNT_TOLERANCE=0.03 scripts/regression-check.sh
#
# With --wall (or WALL=1) it times the two builds instead, for what counts cannot see (parallel
# scaling, memory bandwidth, I/O):
#
# Both builds are measured here and now, taking turns: the baselines' commit (from their
# provenance) is built beside this tree, then every level of every set of scripts/sets.sh is
# solved ROUNDS times by each build, each run a process of its own, the two builds alternating
# level by level (A B, then B A, ...), so that both see the same seconds of a shared machine's
# load (alternating whole sets, a minute apart, let load that changed within the minute reach
# one build more than the other). Each side's runs of a set go to a folder (a subfolder per
# round, a CSV per level), which `frontier compare` reads as one run, and pairs round by round
# (src/harness/runs.rs): a worse answer or more states is a regression (exit 1), and so is a
# level whose time is beyond the tolerance in the median of its rounds' ratios (new/baseline of
# the same round) with every round slower. Levels whose first run takes under WARM_BELOW ms
# (default 50) are timed warm (`solve --warm-below`): that run is not counted and the level is
# solved again in the same process until its runs add up to WARM_BELOW ms, when both builds
# have the option. Ends with one report page of every set's before/after.
#
#   scripts/regression-check.sh --wall [frontier compare options, e.g. --time-tolerance 1.5]
#   ROUNDS=5 scripts/regression-check.sh --wall      # runs per build and level (default 3)
set -uo pipefail
cd "$(dirname "$0")/.."
wall=${WALL:-0}
if [ "${1:-}" = --wall ]; then
    wall=1
    shift
fi
fresh=$(mktemp -d)

# The baselines' commit, from their provenance, and a worktree of it under target/ whose build
# is kept, so that the next check rebuilds nothing. (Once a count has added the benchmark
# program there, that build's provenance says `-dirty`; its sources under src/ are the commit's.)
commit=$(sed -n 's/^  "commit": "\([0-9a-f]*\).*",$/\1/p' results/baselines/corpora.csv.json)
if [ -z "$commit" ] || ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "regression-check: the baselines' commit '$commit' (results/baselines/corpora.csv.json) is not in this repository" >&2
    exit 2
fi
base=target/regression-baseline
baseline_worktree() {
    git worktree prune
    if [ -e "$base/src/.git" ]; then
        # Another commit: the benchmark program the counts added (below) goes with the old one.
        [ "$(git -C "$base/src" rev-parse HEAD)" = "$(git rev-parse "$commit")" ] ||
            git -C "$base/src" checkout --quiet --force --detach "$commit" || exit 2
    else
        git worktree add --quiet --detach "$base/src" "$commit" || exit 2
    fi
}

if [ "$wall" = 0 ]; then
    started=$(date +%s)
    # Counts of one binary vary by 0.013% at most, and code layout moved a benchmark of an
    # unchanged game by up to 1.1%; an extra hash per visited-set insert adds 2.0% to
    # engine-bfs (docs/testing.md).
    tolerance=${COUNT_TOLERANCE:-0.015}
    echo "== counting this build"
    scripts/count.sh --out "$fresh/new.csv" || exit 2
    stored=results/baselines/counts.csv
    field() { sed -n "s/^  \"$1\": \"\(.*\)\",\?$/\1/p" "$stored.json" 2>/dev/null; }
    if [ "${COUNT_BASELINE:-0}" = 0 ] &&
        [ "$(field commit)" = "$(git rev-parse "$commit")" ] &&
        [ "$(field cpu)" = "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" ] &&
        [ "$(field valgrind)" = "$(valgrind --version)" ] &&
        [ "$(field benchmarks)" = "$(git hash-object benches/counted.rs)" ] &&
        [ "$(field build)" = "$(sed -n "s/^counted_config='\(.*\)'$/\1/p" scripts/count.sh)" ]; then
        echo "== the baselines' counts: stored ($stored, $(field date))"
        cp "$stored" "$fresh/baseline.csv"
    else
        # The baselines' library with this tree's benchmark program, which that commit may not
        # have: copied into the worktree, and left there (each file written only when it
        # differs), because a Cargo.toml touched again makes cargo rebuild the whole crate.
        echo "== building and counting the baselines' commit $commit"
        baseline_worktree
        cmp -s benches/counted.rs "$base/src/benches/counted.rs" ||
            cp benches/counted.rs "$base/src/benches/counted.rs"
        grep -q '^name = "counted"$' "$base/src/Cargo.toml" ||
            printf '\n[[bench]]\nname = "counted"\nharness = false\n' >>"$base/src/Cargo.toml"
        # Built as count.sh builds this tree's.
        bin=$(CARGO_TARGET_DIR=$PWD/$base/target cargo bench --bench counted --no-run \
            --config "$(sed -n "s/^counted_config='\(.*\)'$/\1/p" scripts/count.sh)" \
            --message-format=json --manifest-path "$base/src/Cargo.toml" 2>/dev/null |
            sed -n '/"name":"counted"/s/.*"executable":"\([^"]*\)".*/\1/p')
        [ -x "$bin" ] || { echo "regression-check: building the baselines' benchmarks failed" >&2; exit 2; }
        scripts/count.sh --bin "$bin" --commit "$(git rev-parse "$commit")" \
            --out "$fresh/baseline.csv" || exit 2
    fi
    # Per benchmark: the ratio of the counts, and whether the answers (states included) agree.
    awk -F, -v tol="$tolerance" '
        FNR == 1 { next }
        NR == FNR { count[$1] = $2; answer[$1] = $3; next }
        {
            if (!($1 in count)) { printf "%-24s not in the baseline\n", $1; bad++; next }
            seen[$1] = 1
            ratio = $2 / count[$1]
            verdict = ratio > 1 + tol ? "SLOWER" : ratio < 1 - tol ? "faster" : "ok"
            if (verdict == "SLOWER") slower = slower " " $1
            printf "%-24s %14.0f -> %14.0f  x%.4f  %s\n", $1, count[$1], $2, ratio, verdict
            if ($3 != answer[$1]) {
                printf "  ANSWER CHANGED: %s -> %s\n", answer[$1], $3
                changed = changed " " $1
            }
        }
        END {
            for (name in count) if (!(name in seen)) { printf "%-24s not counted in this build\n", name; bad++ }
            if (length(seen) == 0) { print "no benchmark counted"; bad++ }
            if (slower != "") printf "REGRESSED: more than x%.3f the instructions:%s\n", 1 + tol, slower
            if (changed != "") printf "REGRESSED: answers or states changed:%s\n", changed
            if (slower == "" && changed == "" && !bad) printf "OK: no benchmark above x%.3f, answers and states the same\n", 1 + tol
            exit slower != "" || changed != "" || bad
        }' "$fresh/baseline.csv" "$fresh/new.csv"
    status=$?
    echo "counts in $fresh (baseline.csv, new.csv); $(($(date +%s) - started)) s"
    exit $status
fi

. scripts/sets.sh
rounds=${ROUNDS:-3}
cargo build --release --quiet || exit 2

# The baselines' build: built in its worktree; the same binary when this tree is that commit,
# unchanged.
mkdir -p "$fresh/bin"
if [ "$(git rev-parse HEAD)" = "$(git rev-parse "$commit")" ] && git diff --quiet HEAD; then
    cp target/release/frontier "$fresh/bin/baseline"
else
    echo "== building the baselines' commit $commit"
    baseline_worktree
    CARGO_TARGET_DIR=$PWD/$base/target cargo build --release --quiet \
        --manifest-path "$base/src/Cargo.toml" || exit 2
    cp "$base/target/release/frontier" "$fresh/bin/baseline"
fi
cp target/release/frontier "$fresh/bin/new"
# Short levels timed warm, where both builds can (the option is newer than some baselines).
warm=()
if "$fresh/bin/baseline" solve --help | grep -q -- --warm-below &&
    "$fresh/bin/new" solve --help | grep -q -- --warm-below; then
    warm=(--warm-below "${WARM_BELOW:-50}")
else
    echo "(the baselines' build has no --warm-below: short levels are timed cold)"
fi

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
            "$fresh/bin/$side" solve --quiet --parallel-levels 1 "${warm[@]}" \
                --level "$(exact_glob "$level")" \
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
# 2 ms in a batch takes 20-33 ms so, and varies by a third between runs. Timed cold, levels
# under 50 ms are therefore judged together (their sum), unless the caller says otherwise: two
# checks of an unchanged build each called one 25 ms level x1.26-1.29 slower, and 15 pairs of it
# x1.03. Timed warm, those under 10 ms (compare's default) are.
[[ " $* " == *" --small-millis"* ]] || [ ${#warm[@]} -gt 0 ] || options+=(--small-millis 50)
for_each_set compare_set
# One page: the summary of every set against the baseline build on top, then each before/after.
"$fresh/bin/new" report --baseline "$fresh/baseline" --out "$fresh/report.html" "$fresh"/new/* 2>/dev/null
echo "the runs of both builds and the report ($fresh/report.html) are in $fresh"
exit $status
