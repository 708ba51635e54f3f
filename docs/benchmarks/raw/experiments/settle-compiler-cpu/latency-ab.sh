#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape with --processes (bench/latency.sh, RUNS=1 a run) on this build (A: the settle
# reads the compiler threads' runnable time) and on the code before (B: c2a28fa, the settle on the JVM's compilation
# time, built with its own AOT cache in the worktree WT), in the order given (e.g. B1 A4 B2 A5 B3). Reports beside
# this script: latency-<arm><n>.md.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/settle-compiler-cpu
wt=${WT:-/tmp/wt-b}
for n in "$@"; do
  case $n in B*) dir=$wt ;; *) dir=$PWD ;; esac
  (cd "$dir" && BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/settle-ab/$n REPORT=$here/latency-$n.md bench/latency.sh > "/tmp/settle-ab-$n.log" 2>&1)
done
