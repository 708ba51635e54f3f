#!/usr/bin/env bash
# B H H B B H: cold seed shape from the Go generator, in-JVM, stack JVM options as shipped (B) or with the heap on
# transparent huge pages and pre-touched (H).
cd /work/main
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
i=0
for arm in B H H B B H; do
  i=$((i+1))
  opts=$BASE
  [ "$arm" = H ] && opts="$BASE -XX:+UseTransparentHugePages -XX:+AlwaysPreTouch"
  echo "$(date +%T) run $i arm $arm: $opts"
  IOT_JAVA_OPTS="$opts" GEN=go COLD=1 RUNS=1 OUT=/tmp/thp-ab/$i-$arm REPORT=/tmp/thp-ab/$i-$arm.md bench/seed-waves.sh > /tmp/thp-ab/$i-$arm.log 2>&1
  echo "$(date +%T) run $i done rc=$?"
done
