#!/usr/bin/env bash
# After the 60 s training (5dc1d11): the service processes' settle bound as shipped (S, 3 s) against 6 s (S6,
# IOT_WARMUP_SETTLEMAXTIME=6s), --processes, one fresh stack per run, S6 S S6 S S S6:
# `BENCH_PROCESSES=1 RUNS=1 bench/latency.sh` with every JVM's compile log and the services' logs kept.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
OUT=${OUT:-/tmp/aot-settle-ab}
mkdir -p "$OUT"
n=$((${START:-1} - 1))
for arm in ${ARMS:-S6 S S6 S S S6}; do
  n=$((n + 1)); run=$arm-$n; dir=$OUT/$run; rm -rf "$dir"; mkdir -p "$dir/jit" "$dir/data"
  settle=3s; [ "$arm" = S6 ] && settle=6s
  IOT_WARMUP_SETTLEMAXTIME=$settle JAVA_TOOL_OPTIONS="-Xlog:jit+compilation=debug:file=$dir/jit/%p.log:uptime" \
    BENCH_PROCESSES=1 RUNS=1 BENCH_DATA_DIR="$dir/data" OUT="$dir/lat" REPORT="$HERE/latency-$run.md" \
    bench/latency.sh > "$dir/run.log" 2>&1 || echo "$run failed" >&2
  grep -h "Warmed up\|process running for" "$dir"/data/logs/*.log > "$dir/warmup.txt" || true
  rm -rf "$dir/data"
done
