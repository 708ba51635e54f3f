#!/usr/bin/env bash
# Settle A/B with --processes: the services' default (settle-time 5s) against IOT_WARMUP_SETTLE_TIME=0s, interleaved.
cd "$(dirname "$0")/../../../../.."
source <(sed -n '/^java_major()/,/^}/p;/^select_jdk()/,/^}/p;/^log()/p' pipeline); select_jdk
export BENCH_PROCESSES=1 KEEP_DATA=1
for run in 1 2 3; do
  for arm in settle base; do
    if [ $arm = base ]; then export IOT_WARMUP_SETTLE_TIME=0s; else unset IOT_WARMUP_SETTLE_TIME; fi
    OUT=/tmp/coldexp/abs/$arm-$run docs/benchmarks/raw/experiments/compile-priority-ab/run.sh > /tmp/coldexp/abs-$arm-$run.log 2>&1
    grep -o 'started in [0-9.]* s' /tmp/coldexp/abs/$arm-$run/stack.log | head -1 > /tmp/coldexp/abs/$arm-$run/started.txt
    d=$(grep -o 'Data: [^ ]*' /tmp/coldexp/abs/$arm-$run/stack.log | head -1 | cut -d' ' -f2)
    grep -h "Warmed up" "$d"/logs/*.log > /tmp/coldexp/abs/$arm-$run/warmups.txt 2>/dev/null
    rm -rf "$d"
  done
done
