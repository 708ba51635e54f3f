#!/usr/bin/env bash
# B G G B B G on one build: the cold seed shape from the Go generator (GEN=go COLD=1 bench/seed-waves.sh), in-JVM,
# with the warm-up's collection before READY (G, the default) or without (B: IOT_WARMUP_COLLECT=false); each stack
# JVM logging its collections.
cd /work/main
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
i=0
for arm in ${ARMS:-B G G B B G}; do
  i=$((i+1)); dir=/tmp/collect-ab/$i-$arm; mkdir -p "$dir"
  if [ "$arm" = B ]; then export IOT_WARMUP_COLLECT=false; else unset IOT_WARMUP_COLLECT; fi
  echo "$(date +%T) run $i arm $arm"
  IOT_JAVA_OPTS="$BASE -Xlog:gc:file=$dir/gc.log:time,uptime" GEN=go COLD=1 RUNS=1 OUT=$dir REPORT=$dir.md \
    bench/seed-waves.sh > $dir.log 2>&1
  echo "$(date +%T) run $i done rc=$?"
done
