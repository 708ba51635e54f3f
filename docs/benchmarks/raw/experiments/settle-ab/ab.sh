#!/usr/bin/env bash
# Readiness that waits for the JIT (S: iot.warmup.settle-max 2 s) against none (A: 0 s), ingest's restart case
# (--processes, two instances of every service), one fresh stack per run, S A S A S A. Every service JVM also logs
# its collections and its JIT's compilations (with uptime) to $o/<run>/diag/, and the stack's data directory (its
# logs) is kept, so a stall can be traced to what the restarted instance was doing.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/settle}
mkdir -p "$o"
for i in 1 2 3; do
  for arm in S A; do
    r=$o/$arm$i
    rm -rf "$r" && mkdir -p "$r/diag"
    settle=2s; [ "$arm" = S ] || settle=0s
    IOT_WARMUP_SETTLE_MAX=$settle BENCH_DATA_DIR=$r/data \
      IOT_SERVICE_JAVA_OPTS="-Xmx512m -XX:+UseSerialGC -Xlog:gc*,safepoint:file=$r/diag/gc-%p.log:uptime,time -Xlog:jit+compilation=debug:file=$r/diag/jit-%p.log:uptime,time" \
      RUNS=1 SERVICES=ingest HOW=kill OUT=$r/raw REPORT=$o/restart-$arm$i.md bench/restarts.sh > "$r/bench.log" 2>&1
    mkdir -p "$r/logs" && find "$r/data" -name '*.log' -size -50M -exec cp {} "$r/logs/" \; ; rm -rf "$r/data"
  done
done
