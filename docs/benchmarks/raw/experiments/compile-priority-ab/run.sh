#!/usr/bin/env bash
# Per-thread CPU (bench/lib.sh threads) of the stack JVM (with --processes: the ingest process) and the broker,
# every 10 s over a cold and then a warm seed-shape run on a fresh stack. Run from anywhere; OUT names the results.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source bench/lib.sh
export OUT=${OUT:-/tmp/coldexp/out}
rm -rf "$OUT"; mkdir -p "$OUT"
measure() {
  local stack broker
  stack=$(listener_pid "$IOT_INGEST_PORT")
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  ps -L -o pid,tid,nice,comm -p "$stack" | grep -i compiler > "$OUT/nice.txt" || true
  for phase in cold warm; do
    threads "stack=$stack" "broker=$broker" > "$OUT/$phase.before"
    ( while sleep 10; do threads "stack=$stack" "broker=$broker" > "$OUT/$phase.$(date +%s)"; done ) & sampler=$!
    RUN_DIR="$OUT/$phase" k6/run suite1-closed-loop > "$OUT/$phase.log" 2>&1 || echo "k6 exit $? ($phase)" >> "$OUT/failures.txt"
    kill $sampler
    threads "stack=$stack" "broker=$broker" > "$OUT/$phase.after"
  done
}
export -f threads measure
bench_stack "$OUT/stack.log" measure
