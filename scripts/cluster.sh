#!/usr/bin/env bash
# Starts a distributed `frontier solve`: one process per line of a hostfile (`host:port`, one
# line a process), each `frontier solve --distributed --hostfile HOSTFILE --process I ARGS...`.
# Processes on this machine (127.*, localhost, ::1, its hostname) start here; the others by ssh,
# in FRONTIER_REMOTE_DIR (default: this directory's path), where the same binary, hostfile and
# level paths must exist. Process 0 (the first line) writes the results and shows progress.
# Waits for every process; exits with the first non-zero status, else 0.
#
#   scripts/cluster.sh HOSTFILE [solve options and paths...]
#   scripts/cluster.sh hosts.txt --workers 2 --out results/towers.csv corpora/official/ice-tower
#
# Environment: FRONTIER_BIN (default target/release/frontier), FRONTIER_REMOTE_DIR.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 HOSTFILE [solve options] PATH..." >&2
  exit 2
fi
hostfile=$1
shift
bin=${FRONTIER_BIN:-target/release/frontier}
remote_dir=${FRONTIER_REMOTE_DIR:-$PWD}
[ -x "$bin" ] || { echo "$0: $bin not found (cargo build --release)" >&2; exit 2; }

# The hostfile's addresses, comments and blank lines skipped (as frontier reads it).
mapfile -t addresses < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$hostfile" | grep -v '^$')
this_host=$(hostname)

pids=()
for i in "${!addresses[@]}"; do
  host=${addresses[$i]%:*}
  command=("$bin" solve --distributed --hostfile "$hostfile" --process "$i" "$@")
  case "$host" in
    127.* | localhost | "[::1]" | "$this_host")
      "${command[@]}" &
      ;;
    *)
      ssh "$host" "cd $(printf %q "$remote_dir") && $(printf '%q ' "${command[@]}")" &
      ;;
  esac
  pids+=($!)
done

status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" && code=0 || code=$?
  if [ "$code" -ne 0 ]; then
    echo "$0: process $i (${addresses[$i]}) exited with status $code" >&2
    [ "$status" -ne 0 ] || status=$code
  fi
done
exit "$status"
