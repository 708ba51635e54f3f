#!/usr/bin/env bash
# Ingest's kill -9 restart under the seed shape (bench/restarts.sh SERVICES="notify ingest" HOW=kill: notify's case first, so
# that the rest of the stack is warm when ingest is killed, as in the full report), interleaved between two
# checkouts: BASE (the code before, built with its own Maven repository so that its run classpath is its own, and
# its --processes AOT cache trained) and this one. RUNS pairs; OUT collects each run's raw results and report.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/../../../../.." && pwd)
BASE=${BASE:?the checkout of the code before}
OUT=${OUT:-/tmp/ingest-producer-warmup}
mkdir -p "$OUT"
for run in $(seq 1 "${RUNS:-3}"); do
  for arm in base new; do
    dir=$HERE; [ "$arm" = base ] && dir=$BASE
    (cd "$dir" && RUNS=1 SERVICES="${SERVICES:-notify ingest}" HOW=kill OUT="$OUT/$arm-$run" REPORT="$OUT/$arm-$run.md" bench/restarts.sh) \
      > "$OUT/$arm-$run.log" 2>&1 || echo "$arm-$run exit $?" >> "$OUT/failures.txt"
  done
done
