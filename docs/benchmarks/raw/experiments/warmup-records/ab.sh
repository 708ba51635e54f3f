#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape with --processes (bench/latency.sh, RUNS=1 a run) with the Kafka rehearsals
# writing and reading back 500 records a round (W, the default) or 100 as before (N: IOT_WARMUP_RECORDSPERROUND=100,
# which every service process reads), in the order given (e.g. N1 W1 W2 N2 N3 W3). Reports beside this script:
# latency-<arm><n>.md; each run's warm-up lines (rounds, settle) in warmup-<arm><n>.txt. As run, the working tree held
# records-per-round.patch (iot.warmup.records-per-round, default 500); the code has the knob no more.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/warmup-records
for n in "$@"; do
  case $n in N*) per=100 ;; *) per=500 ;; esac
  data=/tmp/warmup-records-data-$n
  rm -rf "$data"
  IOT_WARMUP_RECORDSPERROUND=$per BENCH_DATA_DIR=$data BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/warmup-records/$n \
    REPORT=$here/latency-$n.md bench/latency.sh > "/tmp/warmup-records-$n.log" 2>&1
  grep -h 'Warmed up' "$data"/logs/*.log | sed 's/.*WarmupRunner *: //' > "$here/warmup-$n.txt"
  rm -rf "$data"
done
