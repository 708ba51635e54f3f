#!/usr/bin/env bash
# Ingest's warm-up with a burst of new connections and a listen backlog of 1,024 (B, the change) against neither
# (A: INGEST_DEVICE_PATH_WARMUP_BURST=0, SERVER_TOMCAT_ACCEPT_COUNT=100, the code before), on ingest's restart case
# (--processes, two instances of every service), one fresh stack per run, B A B A B A. Every service JVM logs its
# collections to $o/<run>/diag/, and the stack's logs are kept. ARMS="C" PAIRS="1 2 3" ran the third build (C: the
# burst, the backlog and the fuller rehearsal) on its own, three times; C is B's settings.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/burst}
mkdir -p "$o"
for i in ${PAIRS:-1 2 3}; do
  for arm in ${ARMS:-B A}; do
    r=$o/$arm$i
    rm -rf "$r" && mkdir -p "$r/diag"
    if [ "$arm" != A ]; then burst=512 backlog=1024; else burst=0 backlog=100; fi
    INGEST_DEVICE_PATH_WARMUP_BURST=$burst SERVER_TOMCAT_ACCEPT_COUNT=$backlog BENCH_DATA_DIR=$r/data \
      IOT_SERVICE_JAVA_OPTS="-Xmx512m -XX:+UseSerialGC -Xlog:gc:file=$r/diag/gc-%p.log:uptime,time" \
      RUNS=1 SERVICES=ingest HOW=kill OUT=$r/raw REPORT=$o/restart-$arm$i.md bench/restarts.sh > "$r/bench.log" 2>&1
    mkdir -p "$r/logs" && find "$r/data" -name '*-28*.log' -exec cp {} "$r/logs/" \; ; rm -rf "$r/data"
  done
done
