#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape with --processes (bench/latency.sh, RUNS=1 a run) on this build (A: notify's
# live path in its warm-up) and on the code before (B: 266ffbc, built with its own AOT cache in the
# worktree WT), in the order given (e.g. B1 A1 A2 B2 B3 A3). Reports beside this script: latency-<arm><n>.md.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/live-rehearsal
wt=${WT:-/tmp/wt-b}
for n in "$@"; do
  case $n in B*) dir=$wt ;; *) dir=$PWD ;; esac
  (cd "$dir" && BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/live-rehearsal/$n REPORT=$here/latency-$n.md bench/latency.sh > "/tmp/live-rehearsal-$n.log" 2>&1)
done
