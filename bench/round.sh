#!/usr/bin/env bash
# The round of record for issues 26 and 27, and only on cores as fast as the earlier rounds': the machines here are
# shared, and on a slow day every process takes twice the CPU per uplink, so a round then says nothing about the
# targets (docs/benchmarks/raw/experiments/slow-machine-2026-12-01.md). First a gate: k6 alone against the null
# server (TARGET=null RUNS=1 bench/seed-waves.sh), whose CPU per POST must be at most MAX_K6_CPU µs (335: the rounds
# of record took 241-335, 274 at the last one's median). Then, in order, the STEPS (default all):
#   latency            ./pipeline aot, then RUNS=3 bench/latency.sh
#   latency-processes  ./pipeline aot --processes, then BENCH_PROCESSES=1 RUNS=3 bench/latency.sh
#   throughput         RUNS=3 bench/throughput.sh
#   seed-waves-null    TARGET=null RUNS=3 bench/seed-waves.sh
# and, only when named, the seed shape from the Go generator on the in-JVM stack (after `latency`, whose AOT cache it
# reads; docs/benchmarks/raw/experiments/seed-first-wave.md):
#   seed-waves-go      GEN=go RUNS=3 bench/seed-waves.sh, warm
#   seed-waves-go-cold GEN=go COLD=1 RUNS=3 bench/seed-waves.sh
# Each step's report, raw results and log go to $ROUND/<step>[.md|/|.log] (default /tmp/round-<time>), not to
# docs/benchmarks: whoever reads them writes them up there, beside the reports they replace. $ROUND/round.log has a
# line per step, and after each step the gate's figure again (logged, not gating: the cores can slow within the
# hour, and a step that ran on slower cores than the gate said should be read so). WAIT_UNTIL=HH:MM re-checks the
# speed every WAIT_EVERY seconds (600) until the next such time of day instead of giving up at once; FORCE=1 skips
# the gate. Exit 3: the cores stayed slow.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUND=${ROUND:-/tmp/round-$(date +%Y%m%dT%H%M)}
STEPS=${STEPS:-latency latency-processes throughput seed-waves-null}
MAX_K6_CPU=${MAX_K6_CPU:-335}
mkdir -p "$ROUND"
say() { echo "$(date +%T) $*" | tee -a "$ROUND/round.log"; }

# k6's CPU per POST against the null server, in whole µs.
k6_cpu_per_post() {
  local dir=$ROUND/gate-$(date +%H%M)
  TARGET=null RUNS=1 OUT="$dir" REPORT="$dir.md" bench/seed-waves.sh > "$dir.log" 2>&1
  sed -n 's/.*k6 CPU per POST \([0-9.]*\) µs.*/\1/p' "$dir.md" | cut -d. -f1
}

# WAIT_UNTIL as seconds since the epoch: the next such time of day, tomorrow's if today's has passed.
wait_until_epoch() {
  local t
  t=$(date -d "$WAIT_UNTIL" +%s)
  [ "$t" -gt "$(date +%s)" ] || t=$(date -d "tomorrow $WAIT_UNTIL" +%s)
  echo "$t"
}
[ -z "${WAIT_UNTIL:-}" ] || UNTIL=$(wait_until_epoch)

if [ "${FORCE:-}" != 1 ]; then
  while :; do
    cpu=$(k6_cpu_per_post || true)
    if [ -n "$cpu" ] && [ "$cpu" -le "$MAX_K6_CPU" ]; then
      say "gate: k6 took $cpu µs of CPU per POST against the null server (at most $MAX_K6_CPU): the round runs"
      break
    fi
    say "gate: k6 took ${cpu:-?} µs of CPU per POST against the null server (at most $MAX_K6_CPU): cores too slow"
    if [ -z "${WAIT_UNTIL:-}" ] || [ $(($(date +%s) + ${WAIT_EVERY:-600})) -gt "$UNTIL" ]; then
      exit 3
    fi
    sleep "${WAIT_EVERY:-600}"
  done
fi

for step in $STEPS; do
  say "$step: started"
  case $step in
    latency)
      ./pipeline aot > "$ROUND/$step.log" 2>&1
      RUNS=3 OUT="$ROUND/$step" REPORT="$ROUND/$step.md" bench/latency.sh >> "$ROUND/$step.log" 2>&1 ;;
    latency-processes)
      ./pipeline aot --processes > "$ROUND/$step.log" 2>&1
      BENCH_PROCESSES=1 RUNS=3 OUT="$ROUND/$step" REPORT="$ROUND/$step.md" bench/latency.sh >> "$ROUND/$step.log" 2>&1 ;;
    throughput)
      RUNS=3 OUT="$ROUND/$step" REPORT="$ROUND/$step.md" bench/throughput.sh > "$ROUND/$step.log" 2>&1 ;;
    seed-waves-null)
      TARGET=null RUNS=3 OUT="$ROUND/$step" REPORT="$ROUND/$step.md" bench/seed-waves.sh > "$ROUND/$step.log" 2>&1 ;;
    seed-waves-go)
      GEN=go RUNS=3 OUT="$ROUND/$step" REPORT="$ROUND/$step.md" bench/seed-waves.sh > "$ROUND/$step.log" 2>&1 ;;
    seed-waves-go-cold)
      GEN=go COLD=1 RUNS=3 OUT="$ROUND/$step" REPORT="$ROUND/$step.md" bench/seed-waves.sh > "$ROUND/$step.log" 2>&1 ;;
    *) say "$step: no such step (latency, latency-processes, throughput, seed-waves-null, seed-waves-go, seed-waves-go-cold)"; exit 2 ;;
  esac
  say "$step: done, report $ROUND/$step.md"
  say "$step: after it, k6 took $(k6_cpu_per_post || echo '?') µs of CPU per POST against the null server"
done
