#!/usr/bin/env bash
# On the cache trained until quiet (local-stack/target/aot/processes), D: every JVM with HotSpot 25's profile delay
# factors at 1 (-XX:Tier0ProfileDelayFactor=1 -XX:Tier2ProfileDelayFactor=1, diagnostic flags, through
# JAVA_TOOL_OPTIONS), so that a method whose trained compilation does not apply leaves C1 level 2 at the standard
# thresholds instead of 250 times them; Q: as shipped. One fresh stack per run, `BENCH_PROCESSES=1 RUNS=1
# bench/latency.sh`; ARMS picks the sequence, runs numbered from START; reports beside this script
# (latency-delay-<arm>-<n>.md).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
OUT=${OUT:-/tmp/aot-quiet-ab}
mkdir -p "$OUT"
n=$((${START:-1} - 1))
for arm in ${ARMS:-D Q Q D}; do
  n=$((n + 1)); run=$arm-$n
  flags=""
  [ "$arm" = D ] && flags="-XX:+UnlockDiagnosticVMOptions -XX:Tier0ProfileDelayFactor=1 -XX:Tier2ProfileDelayFactor=1"
  JAVA_TOOL_OPTIONS="$flags" BENCH_PROCESSES=1 RUNS=1 OUT="$OUT/delay-$run" REPORT="$HERE/latency-delay-$run.md" \
    bench/latency.sh > "$OUT/delay-$run.log" 2>&1 || echo "$run failed" >&2
done
