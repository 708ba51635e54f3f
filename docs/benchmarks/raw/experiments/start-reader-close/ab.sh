#!/usr/bin/env bash
# A/B of ./pipeline run --no-build [$MODE] to READY, runs A B A B A B, each on a fresh data directory:
# A = /tmp/wa (git worktree add /tmp/wa 33dd0ed3), B = /work/main (38657031); each builds and trains its own AOT cache.
# Usage: OUT=/tmp/ab bash ab.sh; MODE=--processes OUT=/tmp/abp bash ab.sh. One line a run: wall clock, the banner's
# "started in", and each service's "Warmed up in" (ms).
set -u
source <(sed -n '/^java_major()/,/^}/p;/^select_jdk()/,/^}/p;/^log()/p' /work/main/pipeline); select_jdk >/dev/null 2>&1
MODE=${MODE:-}
OUT=${OUT:-/tmp/ab}
for w in /work/main /tmp/wa; do
  (cd $w && ./mvnw -B -o -q -DskipTests package > $OUT-build-$(basename $w).log 2>&1 && ./pipeline aot $MODE > $OUT-aot-$(basename $w).log 2>&1) || echo "build/aot failed in $w"
done
for r in A1 B1 A2 B2 A3 B3; do
  case $r in A*) w=/tmp/wa;; B*) w=/work/main;; esac
  d=$OUT/$r; rm -rf $d; mkdir -p $d
  s=$(date +%s.%N)
  (cd $w && IOT_DATA_DIR=$d/data setsid ./pipeline run --no-build $MODE > $d/out.log 2>&1 &)
  for i in $(seq 1 480); do grep -q READY $d/out.log && break; sleep 0.25; done
  e=$(date +%s.%N)
  echo "$r wall $(echo "$e - $s" | bc) $(grep -o 'started in [0-9.]* s' $d/out.log) $(grep -h 'Warmed up in' $d/out.log $d/data/logs/*.log 2>/dev/null | sed 's/.*Warmed up in \([0-9]*\) ms.*ready: \([a-z]*\).*/\2=\1/' | tr '\n' ' ')"
  pid=$(pgrep -f "LocalStackMain" | head -1); sid=$(ps -o sid= -p $pid | tr -d ' ')
  pkill -TERM -s $sid
  for i in $(seq 1 160); do pgrep -s $sid >/dev/null || break; sleep 0.25; done
  sleep 5
done
