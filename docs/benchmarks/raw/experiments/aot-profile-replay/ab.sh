#!/usr/bin/env bash
# N (as shipped: the AOT cache's training profiles replayed, HotSpot's defaults) against F
# (-XX:Tier2ProfileDelayFactor=25, a tenth of HotSpot's 250), --processes, one fresh stack per run, N F F N N F:
# `BENCH_PROCESSES=1 RUNS=1 bench/latency.sh` with every JVM's JIT log and the services' logs kept. The flags reach
# every JVM through JAVA_TOOL_OPTIONS (the AOT cache still applies; ./pipeline warns that its fingerprint differs).
# W: F with each service's warm-up rounds for up to 5 s instead of 2 (IOT_WARMUP_MAXTIME); L: N with the 5 s warm-up.
# ARMS picks the sequence;
# the runs are numbered on from START (1).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
OUT=${OUT:-/tmp/aot-replay-ab}
mkdir -p "$OUT"
n=$((${START:-1} - 1))
for arm in ${ARMS:-N F F N N F}; do
  n=$((n + 1)); run=$arm$n; dir=$OUT/$run; rm -rf "$dir"; mkdir -p "$dir/jit" "$dir/data"
  flags="-Xlog:jit+compilation=debug:file=$dir/jit/%p.log:uptime"
  case $arm in F | W) flags="-XX:+UnlockDiagnosticVMOptions -XX:Tier2ProfileDelayFactor=25 $flags" ;; esac
  warmup=2s; case $arm in W | L) warmup=5s ;; esac
  IOT_WARMUP_MAXTIME=$warmup JAVA_TOOL_OPTIONS="$flags" BENCH_PROCESSES=1 RUNS=1 BENCH_DATA_DIR="$dir/data" OUT="$dir/lat" \
    REPORT="$HERE/latency-$run.md" bench/latency.sh > "$dir/run.log" 2>&1 || echo "$run failed" >&2
  grep -h "Warmed up\|process running for" "$dir"/data/logs/*.log > "$dir/warmup.txt" || true
  rm -rf "$dir/data"
done
