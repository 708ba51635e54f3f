#!/usr/bin/env bash
# The cold and warm seed shape in-JVM (bench/latency.sh, one fresh stack a run) with ingest's warm-up burst and a
# listen backlog of 1,024 (C, the build's defaults) against neither (A: INGEST_DEVICE_PATH_WARMUP_BURST=0,
# SERVER_TOMCAT_ACCEPT_COUNT=100), C A C A C A. With BENCH_PROCESSES=1 PAIRS="1 2" O=/tmp/burst-latp: the same in
# --processes, C A C A.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/burst-lat}
mkdir -p "$o"
for i in ${PAIRS:-1 2 3}; do
  for arm in C A; do
    if [ "$arm" = C ]; then burst=512 backlog=1024; else burst=0 backlog=100; fi
    INGEST_DEVICE_PATH_WARMUP_BURST=$burst SERVER_TOMCAT_ACCEPT_COUNT=$backlog RUNS=1 OUT=$o/$arm$i \
      REPORT=$o/latency-$arm$i.md bench/latency.sh > "$o/$arm$i.log" 2>&1
  done
done
