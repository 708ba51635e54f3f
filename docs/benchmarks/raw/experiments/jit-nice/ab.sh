#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape with --processes (bench/latency.sh, RUNS=1 a run), stock (S) or with every
# JVM's JIT compiler threads at nice 10 from READY on (N: a loop renices each C1/C2 compiler thread of every java
# process once ingest reports ready, so the warm-ups compile at full priority and the traffic's waves come first),
# in the order given (e.g. S1 N1 N2 S2 S3 N3). Reports beside this script: latency-<arm><n>.md.
cd "$(dirname "$0")/../../../../.."
here=$PWD/docs/benchmarks/raw/experiments/jit-nice
NICE=${NICE:-10}
renice_loop() {
  until curl -sf "http://127.0.0.1:${IOT_INGEST_PORT:-28080}/actuator/health/readiness" > /dev/null 2>&1; do sleep 0.2; done
  local -A done=()
  local task comm
  while true; do
    for task in $(for pid in $(pgrep -x java); do echo /proc/$pid/task/*; done); do
      [ -z "${done[$task]:-}" ] || continue
      { read -r comm < "$task/comm"; } 2> /dev/null || continue
      case $comm in
        "C1 Compiler"*|"C2 Compiler"*) renice -n "$NICE" -p "${task##*/}" > /dev/null 2>&1 && done[$task]=1 ;;
      esac
    done
    sleep 0.5
  done
}
for n in "$@"; do
  loop=
  case $n in N*) renice_loop & loop=$! ;; esac
  BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/jit-nice/$n REPORT=$here/latency-$n.md bench/latency.sh > "/tmp/jit-nice-$n.log" 2>&1
  [ -z "$loop" ] || kill "$loop"
done
