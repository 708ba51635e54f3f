#!/usr/bin/env bash
cd "$(dirname "$0")/../../../../.."
source <(sed -n '/^java_major()/,/^}/p;/^select_jdk()/,/^}/p;/^log()/p' pipeline); select_jdk
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m"
for run in 1 2 3; do
  for arm in base prio; do
    if [ $arm = prio ]; then export IOT_JAVA_OPTS="$BASE -XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=${PRIO:-10}"; else export IOT_JAVA_OPTS="$BASE"; fi
    OUT=/tmp/coldexp/ab/$arm-$run docs/benchmarks/raw/experiments/compile-priority-ab/run.sh > /tmp/coldexp/ab-$arm-$run.log 2>&1
  done
done
