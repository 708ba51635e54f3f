#!/usr/bin/env bash
# Ingest's restart case (--processes, two instances of every service): the warm-up up to 6 s (B) against the
# default 2 s (A), one fresh stack per run, B A B A; a third A ran later with `nstat` around it (restart-A3.md).
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/wu}
mkdir -p "$o"
for i in 1 2; do
  IOT_WARMUP_MAXTIME=6s RUNS=1 SERVICES=ingest HOW=kill OUT=$o/B$i REPORT=$o/restart-B$i.md bench/restarts.sh > $o/B$i.log 2>&1
  RUNS=1 SERVICES=ingest HOW=kill OUT=$o/A$i REPORT=$o/restart-A$i.md bench/restarts.sh > $o/A$i.log 2>&1
done
# Per second of the window: python3 first-seconds.py $o/A1/run-1/ingest-kill/k6/samples.csv.gz
