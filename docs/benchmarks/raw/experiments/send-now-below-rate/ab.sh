#!/usr/bin/env bash
# Seed shape, lingers by count only (A: send-now-below-rate 0, the code before) against the rate bound (B: the
# default 2,000/s), in-JVM A B A B then --processes A B, RUNS=1 each; then throughput RUNS=1 A then B.
cd "$(dirname "$0")/../../../../.."
A="INGEST_KAFKA_SENDNOWBELOWRATE=0 DECODER_KAFKA_SENDNOWBELOWRATE=0"
mkdir -p /tmp/rate
for i in 1 2; do
  env $A RUNS=1 OUT=/tmp/rate/A$i REPORT=/tmp/rate/latency-A$i.md bench/latency.sh > /tmp/rate/A$i.log 2>&1
  RUNS=1 OUT=/tmp/rate/B$i REPORT=/tmp/rate/latency-B$i.md bench/latency.sh > /tmp/rate/B$i.log 2>&1
done
env $A BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/rate/PA REPORT=/tmp/rate/latency-processes-A.md bench/latency.sh > /tmp/rate/PA.log 2>&1
BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/rate/PB REPORT=/tmp/rate/latency-processes-B.md bench/latency.sh > /tmp/rate/PB.log 2>&1
env $A RUNS=1 OUT=/tmp/rate/tpA REPORT=/tmp/rate/throughput-A.md bench/throughput.sh > /tmp/rate/tpA.log 2>&1
RUNS=1 OUT=/tmp/rate/tpB REPORT=/tmp/rate/throughput-B.md bench/throughput.sh > /tmp/rate/tpB.log 2>&1
echo done > /tmp/rate/DONE
