#!/usr/bin/env bash
# A/B of the broker's AOT training replay, one build and one AOT cache, runs A B A B A B (or B A B A B A with
# FIRST=B), each `RUNS=1 bench/latency.sh` on a fresh stack: A = as shipped, B = the broker with
# -XX:-AOTReplayTraining (its AOT cache's classes, none of its training profiles).
# Usage: OUT=/tmp/broker-replay bash ab.sh; BENCH_PROCESSES=1 OUT=/tmp/broker-replay-p bash ab.sh
set -u
cd /work/main
OUT=${OUT:-/tmp/broker-replay}
BASE="-Xms256m -Xmx768m -XX:+UseParallelGC"
order=(A1 B1 A2 B2 A3 B3)
[ "${FIRST:-A}" = B ] && order=(B1 A1 B2 A2 B3 A3)
mkdir -p "$OUT"
for r in "${order[@]}"; do
  case $r in
    A*) opts="$BASE" ;;
    B*) opts="$BASE -XX:+UnlockDiagnosticVMOptions -XX:-AOTReplayTraining" ;;
  esac
  run_dir=$OUT/$r
  IOT_BROKER_JAVA_OPTS="$opts" RUNS=1 OUT="$run_dir" REPORT="$run_dir/$r.md" bench/latency.sh > "$OUT/$r.log" 2>&1
  echo "$r done $(date +%T)"
  sleep 5
done
