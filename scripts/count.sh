#!/usr/bin/env bash
# Counts the instructions of every counted benchmark (benches/counted.rs) under Valgrind's
# cachegrind, and writes a CSV `benchmark,instructions,answer` (the answer: what the benchmark
# found, its states included, so that two builds' answers are compared too). An instruction
# count does not depend on the machine's load: a busy machine counts what an idle one does.
# Valgrind comes from Debian's packages if missing.
#
#   scripts/count.sh [--out FILE] [NAME ...]      # this tree's build; FILE defaults to stdout
#   scripts/count.sh --bin PATH --commit SHA ...  # a counted binary built elsewhere
#   RUNS=3 scripts/count.sh                       # each benchmark 3 times: the spread, per
#                                                 # benchmark, on stderr (the CSV: the first run)
#   JOBS=1 scripts/count.sh                       # benchmarks counted at a time (default: cores)
#
# Beside FILE it writes FILE.json: the commit counted (`-dirty` with local changes outside
# results/, which baselines.sh has just rewritten when it counts), the CPU
# model, the Valgrind version, the benchmark program's git hash and how it was built (with
# --bin: as this script builds it), which say when a stored count is comparable with one
# counted here (docs/testing.md). Benchmarks run in the
# repository's root, whichever build: both builds read the same levels.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="" commit="" out=""
while [ $# -gt 0 ]; do
    case $1 in
        --bin) bin=$2; shift 2 ;;
        --commit) commit=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) break ;;
    esac
done
runs=${RUNS:-1}
jobs=${JOBS:-$(nproc)}

if ! command -v valgrind >/dev/null; then
    apt-get update -qq && apt-get install -y -qq valgrind >/dev/null || exit 2
fi
# The crate in one codegen unit: LLVM inlines within a unit, and which functions share one of
# the release profile's units follows the modules they are in, so moving code between modules
# moved counts by up to 2.6% with the code unchanged (docs/testing.md). regression-check.sh
# builds the baselines' commit the same way.
counted_config='profile.bench.package.frontier.codegen-units=1'
if [ -z "$bin" ]; then
    # The bench target's executable, from cargo's own report of what it built (the benches
    # need the frontier binary too, which it reports as well).
    bin=$(cargo bench --bench counted --no-run --config "$counted_config" --message-format=json 2>/dev/null |
        sed -n '/"name":"counted"/s/.*"executable":"\([^"]*\)".*/\1/p')
    [ -x "$bin" ] || { echo "count: building benches/counted.rs failed" >&2; exit 2; }
    commit=$(git rev-parse HEAD)
    git diff --quiet HEAD -- . ":!results" || commit+=-dirty
fi
if [ $# -gt 0 ]; then names=("$@"); else mapfile -t names < <("$bin" --list | cut -f1); fi
[ ${#names[@]} -gt 0 ] || { echo "count: $bin lists no benchmarks" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One benchmark run: its answer (stdout) and cachegrind's summary (stderr), to files.
count_one() { # NAME RUN
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$bin" "$1" >"$work/$1.$2.out" 2>"$work/$1.$2.err"
    echo $? >"$work/$1.$2.rc"
}
export -f count_one
export bin work
for ((r = 1; r <= runs; r++)); do
    printf '%s\n' "${names[@]}" | sed "s/\$/ $r/"
done | xargs -P "$jobs" -L 1 bash -c 'count_one "$0" "$1"'

status=0
instructions() { # NAME RUN: the `I   refs:` line's count, digits only
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$work/$1.$2.err" | tr -d ,
}
{
    echo benchmark,instructions,answer
    for name in "${names[@]}"; do
        n=$(instructions "$name" 1)
        if [ "$(cat "$work/$name.1.rc")" != 0 ] || [ -z "$n" ]; then
            echo "count: $name failed:" >&2
            tail -n 5 "$work/$name.1.err" >&2
            status=2
        fi
        echo "$name,$n,$(tr -d ',\n' <"$work/$name.1.out")"
    done
} >"${out:-/dev/stdout}"
if [ -n "$out" ]; then
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    printf '{\n  "commit": "%s",\n  "cpu": "%s",\n  "valgrind": "%s",\n  "benchmarks": "%s",\n  "build": "%s",\n  "date": "%s"\n}\n' \
        "$commit" "$cpu" "$(valgrind --version)" "$(git hash-object benches/counted.rs)" \
        "$counted_config" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$out.json"
fi
if [ "$runs" -gt 1 ]; then
    echo "spread of $runs runs (max-min)/min:" >&2
    for name in "${names[@]}"; do
        for ((r = 1; r <= runs; r++)); do instructions "$name" $r; echo; done |
            awk -v name="$name" 'NF { n[++k] = $1 }
                END { lo = hi = n[1]; for (i in n) { if (n[i] < lo) lo = n[i]; if (n[i] > hi) hi = n[i] }
                      printf "  %-24s %.0f .. %.0f  %.4f%%\n", name, lo, hi, lo ? 100 * (hi - lo) / lo : 0 }' >&2
    done
fi
exit $status
