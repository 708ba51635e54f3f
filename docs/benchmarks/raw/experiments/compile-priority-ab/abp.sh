#!/usr/bin/env bash
cd "$(dirname "$0")/../../../../.."
source <(sed -n '/^java_major()/,/^}/p;/^select_jdk()/,/^}/p;/^log()/p' pipeline); select_jdk
./pipeline aot --processes > /tmp/coldexp/aotp.log 2>&1
export BENCH_PROCESSES=1
BASE="-Xmx512m -XX:+UseSerialGC"
for run in 1 2 3; do
  for arm in base prio; do
    if [ $arm = prio ]; then export IOT_SERVICE_JAVA_OPTS="$BASE -XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=${PRIO:-10}"; else unset IOT_SERVICE_JAVA_OPTS; fi
    OUT=/tmp/coldexp/abp/$arm-$run docs/benchmarks/raw/experiments/compile-priority-ab/run.sh > /tmp/coldexp/abp-$arm-$run.log 2>&1
  done
done
