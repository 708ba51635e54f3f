#!/usr/bin/env bash
# Ingest benchmark (issue 3). Two phases on throwaway embedded stacks, each scenario RUNS times:
#   A. ingest alone (downstream consumers not started, broker acks=all as always): the HTTP ceiling
#      (/bench/noop, 202 without Kafka), single-uplink max rate, batched max rate, latency at RATE/s;
#   B. the whole pipeline consuming at the same time: single-uplink max rate and latency at RATE/s.
# Writes docs/benchmarks/ingest.md (medians) from the k6 JSON summaries kept next to it.
# Usage: [RUNS=3] [DURATION=60s] [VUS=128] [RATE=1000] bench/ingest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export RUNS=${RUNS:-3} DURATION=${DURATION:-60s} VUS=${VUS:-128} RATE=${RATE:-1000}
export OUT=${OUT:-docs/benchmarks/raw/ingest-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
source bench/lib.sh
{ "$K6" version; java -version 2>&1 | head -1; echo "cores: $(nproc)"; } > "$OUT/env.txt"
export INGEST_BENCH_NOOPENDPOINT=true REPORT_DIR=$OUT

# phase PHASE MODE...: runs under the stack (bench_stack), each mode RUNS times.
phase() {
  local phase=$1 run mode
  shift
  for run in $(seq 1 "$RUNS"); do
    for mode in "$@"; do
      echo "phase $phase run $run: $mode" >&2
      PHASE=$phase MODE=$mode RUN="$phase-$run" "$K6" run --quiet k6/ingest-throughput.js \
        > "$OUT/ingest-$mode-$phase-$run.txt" 2>&1 || echo "phase $phase run $run $mode: thresholds failed" >&2
    done
  done
}

SPRING_KAFKA_LISTENER_AUTOSTARTUP=false SPRING_KAFKA_STREAMS_AUTOSTARTUP=false \
  bench_stack "$OUT/stack-alone.log" phase alone noop single batch latency
bench_stack "$OUT/stack-pipeline.log" phase pipeline single latency

rm -f "$OUT"/stack-*.log
./pipeline report ingest "$OUT" "RUNS=$RUNS DURATION=$DURATION VUS=$VUS RATE=$RATE bench/ingest.sh" \
  > docs/benchmarks/ingest.md
cat docs/benchmarks/ingest.md
