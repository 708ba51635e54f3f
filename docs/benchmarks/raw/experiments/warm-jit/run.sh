#!/usr/bin/env bash
# What each JVM's compilers do in the seed shape's warm run: a fresh --processes stack runs the suite cold, then
# every JVM (the four services, the broker) logs its compilations and deoptimizations (jcmd VM.log, switched on at
# run time so the AOT cache still applies) through the warm run. Output: $OUT/<part>-jit.log and the counters
# before and after ($OUT/<part>-ci-{before,after}.txt), with each part's CPU (bench/lib.sh's part_cpu).
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source bench/lib.sh
export OUT=${OUT:-/tmp/warm-jit} BENCH_PROCESSES=1
rm -rf "$OUT"; mkdir -p "$OUT"

measure() {
  local part pid
  RUN_DIR="$OUT/cold" k6/run suite1-closed-loop > "$OUT/cold.log" 2>&1 || echo "k6 exit $? (cold)" >> "$OUT/failures.txt"
  part_cpu > "$OUT/cpu0.txt"
  for part in ingest:$IOT_INGEST_PORT decoder:$IOT_DECODER_PORT rules:$IOT_RULES_PORT notify:$IOT_NOTIFY_PORT \
      broker:$IOT_KAFKA_PORT; do
    pid=$(listener_pid "${part#*:}")
    echo "${part%%:*} $pid" >> "$OUT/pids.txt"
    jcmd "$pid" PerfCounter.print | grep -E 'sun\.ci\.|java\.ci\.' > "$OUT/${part%%:*}-ci-before.txt"
    jcmd "$pid" VM.log output="file=$OUT/${part%%:*}-jit.log" what=jit+compilation=debug,deoptimization=debug \
      decorators=uptime,tid > /dev/null
  done
  RUN_DIR="$OUT/warm" k6/run suite1-closed-loop > "$OUT/warm.log" 2>&1 || echo "k6 exit $? (warm)" >> "$OUT/failures.txt"
  while read -r part pid; do
    jcmd "$pid" PerfCounter.print | grep -E 'sun\.ci\.|java\.ci\.' > "$OUT/$part-ci-after.txt"
  done < "$OUT/pids.txt"
  part_cpu > "$OUT/cpu1.txt"
  join "$OUT/cpu0.txt" "$OUT/cpu1.txt" | awk '{printf "%s %.2f %.2f\n", $1, $4 - $2, $5 - $3}' > "$OUT/warm-cpu.txt"
}
export -f measure
bench_stack "$OUT/stack.log" measure
cat "$OUT/warm-cpu.txt"
