#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape in-JVM (bench/latency.sh, RUNS=1 a run) on this build (C) and on the code before
# the change (B: e65f282, the decoder pipelining every poll, built with its own AOT cache in the worktree WT), in the
# order given. Reports beside this script: latency-vs-<arm><n>.md.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/adaptive-pipelining
wt=${WT:-/tmp/wt-b}
for n in "$@"; do
  case $n in B*) dir=$wt ;; *) dir=$PWD ;; esac
  (cd "$dir" && RUNS=1 OUT=/tmp/adaptive-vs/$n REPORT=$here/latency-vs-$n.md bench/latency.sh > "/tmp/adaptive-vs-$n.log" 2>&1)
done
