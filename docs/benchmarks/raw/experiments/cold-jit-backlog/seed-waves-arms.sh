#!/usr/bin/env bash
# Alternated arms of the cold seed shape from the Go generator (GEN=go COLD=1 RUNS=1 bench/seed-waves.sh), in-JVM,
# one fresh stack a run: B the stack JVM's options as shipped; H with the heap on transparent huge pages and
# pre-touched; C with two C2 compiler threads (the JVM's default on two cores is one C1 and one C2). The runs here:
# ARMS="B H H B B H" DIR=/tmp/thp-ab and ARMS="B C C B B C" DIR=/tmp/c2-ab (their reports in thp-ab/ and c2-ab/).
cd /work/main
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
DIR=${DIR:-/tmp/seed-waves-arms}
mkdir -p "$DIR"
i=0
for arm in ${ARMS:-B H H B B H}; do
  i=$((i+1))
  case $arm in
    H) opts="$BASE -XX:+UseTransparentHugePages -XX:+AlwaysPreTouch" ;;
    C) opts="$BASE -XX:CICompilerCount=3" ;;
    *) opts=$BASE ;;
  esac
  echo "$(date +%T) run $i arm $arm: $opts"
  IOT_JAVA_OPTS="$opts" GEN=go COLD=1 RUNS=1 OUT=$DIR/$i-$arm REPORT=$DIR/$i-$arm.md bench/seed-waves.sh > $DIR/$i-$arm.log 2>&1
  echo "$(date +%T) run $i done rc=$?"
done
