#!/usr/bin/env bash
# --processes start order: S = as shipped (decoder, rules and notify side by side, ingest once they are ready),
# P = all four side by side (IOT_EXPERIMENT_PARALLEL_START=1, a switch that existed for this experiment only),
# one fresh stack per run on the same AOT cache: `BENCH_PROCESSES=1 RUNS=1 bench/latency.sh` with every JVM's
# compile log and the services' logs kept.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
OUT=${OUT:-/tmp/parallel-start-ab}
mkdir -p "$OUT"
n=$((${START:-1} - 1))
for arm in ${ARMS:-P S S P P S}; do
  n=$((n + 1)); run=$arm-$n; dir=$OUT/$run; rm -rf "$dir"; mkdir -p "$dir/jit" "$dir/data"
  parallel=0; [ "$arm" = P ] && parallel=1
  IOT_EXPERIMENT_PARALLEL_START=$parallel JAVA_TOOL_OPTIONS="-Xlog:jit+compilation=debug:file=$dir/jit/%p.log:uptime" \
    BENCH_PROCESSES=1 RUNS=1 BENCH_DATA_DIR="$dir/data" OUT="$dir/lat" REPORT="$HERE/latency-$run.md" \
    bench/latency.sh > "$dir/run.log" 2>&1 || echo "$run failed" >&2
  grep -h "Warmed up\|process running for" "$dir"/data/logs/*.log > "$dir/warmup.txt" || true
  rm -rf "$dir/data"
done
