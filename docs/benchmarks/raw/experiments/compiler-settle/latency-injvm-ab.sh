#!/usr/bin/env bash
# ad hoc: as latency-ab.sh, in-JVM (./pipeline run: the four services in one JVM, whose compilers they share).
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/compiler-settle
for n in "$@"; do
  case $n in N*) settle=0 ;; *) settle=3s ;; esac
  IOT_WARMUP_SETTLEMAXTIME=$settle RUNS=1 OUT=/tmp/compiler-settle-injvm/$n REPORT=$here/latency-injvm-$n.md \
    bench/latency.sh > "/tmp/compiler-settle-injvm-$n.log" 2>&1
done
