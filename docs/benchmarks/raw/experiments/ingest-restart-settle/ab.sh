#!/usr/bin/env bash
# ad hoc: ingest's kill -9 case under the seed load (bench/restarts.sh, SERVICES=ingest WARM_FIRST=1 RUNS=1 a run) on
# this build with the compilers' settle after the warm-up (S, the default) and without it (N:
# IOT_WARMUP_SETTLEMAXTIME=0, every service), in the order given (e.g. S1 N1 N2 S2). Reports beside this script:
# restarts-<arm><n>.md; raw results in /tmp/ingest-restart-settle/<arm><n>.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/ingest-restart-settle
for n in "$@"; do
  case $n in N*) settle=0 ;; *) settle=3s ;; esac
  IOT_WARMUP_SETTLEMAXTIME=$settle SERVICES=ingest HOW=kill WARM_FIRST=1 RUNS=1 OUT=/tmp/ingest-restart-settle/$n \
    REPORT=$here/restarts-$n.md bench/restarts.sh > "/tmp/ingest-restart-settle-$n.log" 2>&1
done
