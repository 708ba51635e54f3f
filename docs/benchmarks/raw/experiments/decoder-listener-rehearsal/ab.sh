#!/usr/bin/env bash
# The decoder's warm-up before (B: 48 polls of 100 uplinks, decoded and written by the warm-up itself) and after
# (A: polls of 10 handed to a twin of the real UplinkListener), --processes, one fresh stack per run:
# `BENCH_PROCESSES=1 RUNS=1 bench/latency.sh` with every JVM's compile log and the services' logs kept.
# Each arm's AOT cache sits in local-stack/target/aot/processes-<arm> with the service jars it was trained on
# (jars/, extracted by ./pipeline aot --processes); a run renames its arm's to processes, and the services run
# those jars (the exec jars' times are set older, so AotCache.extractedJar takes the copies).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
AOT=local-stack/target/aot
OUT=${OUT:-/tmp/decoder-listener-ab}
mkdir -p "$OUT"
n=$((${START:-1} - 1))
for arm in ${ARMS:-B A A B B A}; do
  n=$((n + 1)); run=$arm-$n; dir=$OUT/$run; rm -rf "$dir"; mkdir -p "$dir/jit" "$dir/data"
  [ -d "$AOT/processes-$arm" ] || { echo "no $AOT/processes-$arm" >&2; exit 1; }
  rm -rf "$AOT/processes"; mv "$AOT/processes-$arm" "$AOT/processes"
  JAVA_TOOL_OPTIONS="-Xlog:jit+compilation=debug:file=$dir/jit/%p.log:uptime" BENCH_PROCESSES=1 RUNS=1 \
    BENCH_DATA_DIR="$dir/data" OUT="$dir/lat" REPORT="$HERE/latency-$run.md" bench/latency.sh > "$dir/run.log" 2>&1 \
    || echo "$run failed" >&2
  mv "$AOT/processes" "$AOT/processes-$arm"
  grep -h "Warmed up\|process running for" "$dir"/data/logs/*.log > "$dir/warmup.txt" || true
  rm -rf "$dir/data"
done
