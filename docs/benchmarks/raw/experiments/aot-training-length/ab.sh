#!/usr/bin/env bash
# The --processes AOT cache trained for 20 s (as shipped) against one trained for 60 s
# (IOT_AOT_TRAINING_SECONDS=60 ./pipeline aot --processes), one fresh stack per run:
# `BENCH_PROCESSES=1 RUNS=1 bench/latency.sh` with every JVM's JIT log and the services' logs kept.
# Both caches sit beside each other as local-stack/target/aot/processes-T20 and processes-T60; each run renames
# its arm's to processes (what ./pipeline reads) and back. An arm ending in N8 adds -XX:Tier2InvokeNotifyFreqLog=8:
# C1 level-2 code asks the compilation policy every 256 calls instead of every 2,048 whether the trained C2
# compilation's classes are all initialized now. ARMS picks the sequence; runs are numbered from START.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
AOT=local-stack/target/aot
OUT=${OUT:-/tmp/aot-training-ab}
mkdir -p "$OUT"
n=$((${START:-1} - 1))
for arm in ${ARMS:-T60 T20 T20 T60 T60 T20}; do
  n=$((n + 1)); run=$arm-$n; dir=$OUT/$run; rm -rf "$dir"; mkdir -p "$dir/jit" "$dir/data"
  cache=${arm%N8} flags="-Xlog:jit+compilation=debug:file=$dir/jit/%p.log:uptime"
  [ "$cache" = "$arm" ] || flags="-XX:Tier2InvokeNotifyFreqLog=8 $flags"
  [ -d "$AOT/processes-$cache" ] || { echo "no $AOT/processes-$cache" >&2; exit 1; }
  mv "$AOT/processes-$cache" "$AOT/processes"
  JAVA_TOOL_OPTIONS="$flags" BENCH_PROCESSES=1 RUNS=1 \
    BENCH_DATA_DIR="$dir/data" OUT="$dir/lat" REPORT="$HERE/latency-$run.md" bench/latency.sh > "$dir/run.log" 2>&1 \
    || echo "$run failed" >&2
  mv "$AOT/processes" "$AOT/processes-$cache"
  grep -h "Warmed up\|process running for" "$dir"/data/logs/*.log > "$dir/warmup.txt" || true
  rm -rf "$dir/data"
done
