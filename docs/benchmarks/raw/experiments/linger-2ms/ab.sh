#!/usr/bin/env bash
# Seed shape and throughput: the producers' linger.ms 5 (A, as shipped) against 2 (B), one fresh stack per run,
# in-JVM latency A B A B, then throughput B A, then --processes latency B A (RUNS=1 each).
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/lg}
mkdir -p "$o"
B="SPRING_KAFKA_PRODUCER_PROPERTIES_LINGER_MS=2"
for i in 1 2; do
  RUNS=1 OUT=$o/A$i REPORT=$o/latency-A$i.md bench/latency.sh > $o/A$i.log 2>&1
  env $B RUNS=1 OUT=$o/B$i REPORT=$o/latency-B$i.md bench/latency.sh > $o/B$i.log 2>&1
done
env $B RUNS=1 OUT=$o/tpB REPORT=$o/throughput-B.md bench/throughput.sh > $o/tpB.log 2>&1
RUNS=1 OUT=$o/tpA REPORT=$o/throughput-A.md bench/throughput.sh > $o/tpA.log 2>&1
env $B BENCH_PROCESSES=1 RUNS=1 OUT=$o/PB REPORT=$o/latency-processes-B.md bench/latency.sh > $o/PB.log 2>&1
BENCH_PROCESSES=1 RUNS=1 OUT=$o/PA REPORT=$o/latency-processes-A.md bench/latency.sh > $o/PA.log 2>&1
