#!/usr/bin/env bash
# An AOT cache trained for 60 s of traffic (T, as shipped) against one trained until every service's compilers were
# quiet (Q, AotTraining with CompilerActivity), one fresh stack per run: `RUNS=1 bench/latency.sh`, with
# BENCH_PROCESSES=1 when MODE=processes (the default; MODE=embedded: ./pipeline run's one JVM). Both caches sit beside
# each other as local-stack/target/aot/<MODE>-T and <MODE>-Q; each run renames its arm's to <MODE> (what ./pipeline
# reads) and back. ARMS picks the sequence; runs are numbered from START. Reports beside this script
# (latency-<arm>-<n>.md, in-JVM latency-embedded-<arm>-<n>.md).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../../.."
AOT=local-stack/target/aot
OUT=${OUT:-/tmp/aot-quiet-ab}
mkdir -p "$OUT"
MODE=${MODE:-processes}
prefix=""
[ "$MODE" = processes ] && export BENCH_PROCESSES=1 || prefix=embedded-
n=$((${START:-1} - 1))
for arm in ${ARMS:-Q T T Q Q T}; do
  n=$((n + 1)); run=$arm-$n
  [ -d "$AOT/$MODE-$arm" ] || { echo "no $AOT/$MODE-$arm" >&2; exit 1; }
  mv "$AOT/$MODE-$arm" "$AOT/$MODE"
  RUNS=1 OUT="$OUT/$prefix$run" REPORT="$HERE/latency-$prefix$run.md" bench/latency.sh > "$OUT/$prefix$run.log" 2>&1 \
    || echo "$run failed" >&2
  mv "$AOT/$MODE" "$AOT/$MODE-$arm"
done
