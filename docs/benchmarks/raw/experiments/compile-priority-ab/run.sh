#!/usr/bin/env bash
# Per-thread CPU of the stack, broker, PG and k6 over a cold and then a warm seed-shape run.
set -euo pipefail
cd /work/main
source bench/lib.sh
export OUT=${OUT:-/tmp/coldexp/out}
rm -rf "$OUT"; mkdir -p "$OUT"
threads() {
  local name pid
  for entry in "$@"; do
    name=${entry%%=*} pid=${entry#*=}
    for task in /proc/"$pid"/task/*/stat; do cat "$task" 2>/dev/null || true; done | awk -v process="$name" '{
      comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\) [^)]*$/, "", comm); gsub(/ /, "_", comm)
      rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
      gsub(/[0-9]+/, "N", comm)
      print process, comm, f[12] + f[13]
    }'
  done
}
measure() {
  local stack broker
  stack=$(ss -Hltnp "sport = :$IOT_INGEST_PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  broker=$(ss -Hltnp "sport = :$IOT_KAFKA_PORT" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
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
