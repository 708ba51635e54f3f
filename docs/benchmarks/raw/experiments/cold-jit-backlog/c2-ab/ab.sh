#!/usr/bin/env bash
# B C C B B C: cold seed shape from the Go generator, in-JVM, stack JVM options as shipped (B) or with two C2
# compiler threads (C: -XX:CICompilerCount=3; the JVM's default on two cores is one C1 and one C2).
cd /work/main
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
i=0
for arm in ${ARMS:-B C C B B C}; do
  i=$((i+1))
  opts=$BASE
  [ "$arm" = C ] && opts="$BASE -XX:CICompilerCount=3"
  echo "$(date +%T) run $i arm $arm: $opts"
  IOT_JAVA_OPTS="$opts" GEN=go COLD=1 RUNS=1 OUT=/tmp/c2-ab/$i-$arm REPORT=/tmp/c2-ab/$i-$arm.md bench/seed-waves.sh > /tmp/c2-ab/$i-$arm.log 2>&1
  echo "$(date +%T) run $i done rc=$?"
done
