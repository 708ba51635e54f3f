#!/usr/bin/env bash
# One pair of bench/throughput.sh runs at rates today's cores sustain, C (the inlining budget through
# JAVA_TOOL_OPTIONS) then A (as shipped before it): stack CPU per uplink stored, single POSTs and batches.
# Usage: OUT=/tmp/c2-throughput bash throughput-ab.sh
set -u
cd /work/main
OUT=${OUT:-/tmp/c2-throughput}
C_OPTS=${C_OPTS:--XX:MaxInlineLevel=9 -XX:InlineSmallCode=1000}
mkdir -p "$OUT"
for r in ${ORDER:-C1 A1}; do
  case $r in A*) opts= ;; C*) opts=$C_OPTS ;; esac
  run_dir=$OUT/$r
  JAVA_TOOL_OPTIONS="$opts" RUNS=1 RATE=${RATE:-2500} BATCH_RATE=${BATCH_RATE:-250} OUT="$run_dir" REPORT="$run_dir/$r.md" \
    bench/throughput.sh > "$OUT/$r.log" 2>&1
  echo "$r done $(date +%T)"
  sleep 5
done
