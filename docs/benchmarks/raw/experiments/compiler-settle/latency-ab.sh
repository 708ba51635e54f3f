#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape with --processes (bench/latency.sh, RUNS=1 a run) on one build, each service
# waiting after its warm-up rounds for its JIT compilers to settle (S: iot.warmup.settle-max-time, 3 s) or not (N:
# IOT_WARMUP_SETTLEMAXTIME=0), in the order given (e.g. S1 N1 N2 S2 S3 N3). Reports beside this script.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/compiler-settle
for n in "$@"; do
  case $n in N*) settle=0 ;; *) settle=3s ;; esac
  IOT_WARMUP_SETTLEMAXTIME=$settle BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/compiler-settle/$n REPORT=$here/latency-$n.md \
    bench/latency.sh > "/tmp/compiler-settle-$n.log" 2>&1
done
