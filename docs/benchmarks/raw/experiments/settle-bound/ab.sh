#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape with --processes (bench/latency.sh, RUNS=1 a run) with the settle's bound at
# its default, 3 s (S), or at 6 s (L: IOT_WARMUP_SETTLEMAXTIME=6s, which every service process reads), in the order
# given (e.g. L1 S1 S2 L2 L3 S3). Reports beside this script: latency-<arm><n>.md.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/settle-bound
for n in "$@"; do
  case $n in L*) bound=6s ;; *) bound=3s ;; esac
  IOT_WARMUP_SETTLEMAXTIME=$bound BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/settle-bound/$n REPORT=$here/latency-$n.md \
    bench/latency.sh > "/tmp/settle-bound-$n.log" 2>&1
done
