#!/usr/bin/env bash
# Ingest benchmark (issue 3). Two phases on throwaway embedded stacks, each scenario RUNS times:
#   A. ingest alone (downstream consumers not started, broker acks=all as always): the HTTP ceiling
#      (/bench/noop, 202 without Kafka), single-uplink max rate, batched max rate, latency at RATE/s;
#   B. the whole pipeline consuming at the same time: single-uplink max rate and latency at RATE/s.
# Writes docs/benchmarks/ingest.md (medians) from the k6 JSON summaries kept next to it.
# Usage: [RUNS=3] [DURATION=60s] [VUS=128] [RATE=1000] bench/ingest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3} DURATION=${DURATION:-60s} VUS=${VUS:-128} RATE=${RATE:-1000}
OUT=${OUT:-docs/benchmarks/raw/ingest-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
source bench/lib.sh
{ "$K6" version; java -version 2>&1 | head -1; echo "cores: $(nproc)"; } > "$OUT/env.txt"
export INGEST_BENCH_NOOPENDPOINT=true REPORT_DIR=$OUT

scenario() { # $1 = phase, $2 = mode, $3 = run
  echo "phase $1 run $3: $2" >&2
  PHASE=$1 MODE=$2 RUN="$1-$3" DURATION=$DURATION VUS=$VUS RATE=$RATE "$K6" run --quiet k6/ingest-throughput.js \
    > "$OUT/ingest-$2-$1-$3.txt" 2>&1 || echo "phase $1 run $3 $2: thresholds failed" >&2
}

SPRING_KAFKA_LISTENER_AUTOSTARTUP=false SPRING_KAFKA_STREAMS_AUTOSTARTUP=false start_bench_stack "$OUT/stack-alone.log"
for run in $(seq 1 "$RUNS"); do
  for mode in noop single batch latency; do scenario alone "$mode" "$run"; done
done
stop_bench_stack

start_bench_stack "$OUT/stack-pipeline.log"
for run in $(seq 1 "$RUNS"); do
  for mode in single latency; do scenario pipeline "$mode" "$run"; done
done
stop_bench_stack

rm -f "$OUT"/stack-*.log
python3 bench/report_ingest.py "$OUT" "RUNS=$RUNS DURATION=$DURATION VUS=$VUS RATE=$RATE bench/ingest.sh" \
  > docs/benchmarks/ingest.md
cat docs/benchmarks/ingest.md
