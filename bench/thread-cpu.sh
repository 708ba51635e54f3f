#!/usr/bin/env bash
# CPU per uplink by thread, window by window (issue 26): where a steady single-POST load spends its CPU inside the
# stack JVM (one thread group per pool: Tomcat's carriers, each listener, each producer's I/O thread, the JIT
# compilers, GC), the broker and PostgreSQL, and how long the JIT takes to settle. One fresh `./pipeline run` (all
# services in one JVM): a warm-up of WARMUP at WARMUP_RATE, then WINDOWS windows of WINDOW each at RATE requests/s,
# bench/postload (Go) generating; after each window, the threads' CPU from /proc/PID/task/*/stat. Threads are grouped
# by name with numbers folded (Linux keeps the first 15 characters of a Java thread's name).
#   bench/thread-cpu.sh                                   RATE=5000, WARMUP=20s at 1000/s, 5 windows of 20 s
#   WARMUP=60s WARMUP_RATE=4000 WINDOWS=3 REPORT=/tmp/t.md bench/thread-cpu.sh       steady state only
#   RATE=150 BATCH=100 WARMUP=60s WARMUP_RATE=150 WINDOWS=3 bench/thread-cpu.sh       batches of 100 (RATE requests/s)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
export RATE=${RATE:-5000} WARMUP=${WARMUP:-20s} WARMUP_RATE=${WARMUP_RATE:-1000} WINDOWS=${WINDOWS:-5}
# BATCH: uplinks per request, in the warm-up and the windows alike; figures are per uplink.
export BATCH=${BATCH:-1} WINDOW=${WINDOW:-20s} DEVICES=${DEVICES:-1000} CONNS=${CONNS:-256} TOP=${TOP:-14}
export OUT=${OUT:-docs/benchmarks/raw/thread-cpu} POSTLOAD=$PWD/bench/postload/postload
REPORT=${REPORT:-docs/benchmarks/thread-cpu.md}
(cd bench/postload && go build -o postload .)
rm -rf "$OUT"
mkdir -p "$OUT"

# Runs under the stack (bench_stack): warm-up, then the windows.
measure() {
  local stack broker postmaster accepted
  stack=$(listener_pid "$IOT_INGEST_PORT")
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  postmaster=$(head -1 "$(find "$IOT_DATA_DIR" -name postmaster.pid | head -1)")
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$WARMUP_RATE" -batch "$BATCH" -devices "$DEVICES" \
    -conns "$CONNS" -duration "$WARMUP" -report "$OUT/warmup.json" > "$OUT/warmup.log" 2>&1
  sleep 2
  for w in $(seq 1 "$WINDOWS"); do
    threads "stack=$stack" "broker=$broker" "postgresql-tree=$postmaster" > "$OUT/window-$w.before"
    "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$RATE" -batch "$BATCH" -devices "$DEVICES" \
      -conns "$CONNS" -duration "$WINDOW" -report "$OUT/window-$w.json" > "$OUT/window-$w.log" 2>&1
    sleep 2
    threads "stack=$stack" "broker=$broker" "postgresql-tree=$postmaster" > "$OUT/window-$w.after"
    accepted=$(sed -n 's/.*"uplinksAccepted": *\([0-9]*\).*/\1/p' "$OUT/window-$w.json")
    echo "window $w: $accepted accepted"
  done
}
export -f threads measure  # threads: bench/lib.sh
bench_stack "$OUT/stack.log" measure

# One table per window: µs of CPU per accepted uplink by process and thread group, the largest first.
{
  echo "# CPU per uplink by thread, window by window"
  echo
  echo "- **Command:** \`RATE=$RATE BATCH=$BATCH WARMUP=$WARMUP WARMUP_RATE=$WARMUP_RATE WINDOWS=$WINDOWS WINDOW=$WINDOW bench/thread-cpu.sh\`"
  echo "- **Machine:** $(nproc) cores; $(java -version 2>&1 | head -1); bench/postload, $CONNS connections, $DEVICES devices, on the same machine"
  echo "- **Stack:** \`./pipeline run\` (one JVM for the services), fresh; warm-up $WARMUP at $WARMUP_RATE/s, not counted"
  echo "- **Figures:** CPU (user + system, /proc/PID/task) from a window's start until 2 s after its end, ÷ uplinks accepted in it; the stack JVM's threads grouped by name, numbers folded to N (ForkJoinPool-N- are the carriers of Tomcat's virtual threads)"
  for w in $(seq 1 "$WINDOWS"); do
    json=$OUT/window-$w.json
    accepted=$(sed -n 's/.*"uplinksAccepted": *\([0-9]*\).*/\1/p' "$json")
    echo
    echo "## Window $w"
    echo
    echo "$accepted uplinks accepted, $(sed -n 's/.*"notSentInTime": *\([0-9]*\).*/\1/p' "$json") not sent in time, p99 $(sed -n 's/.*"latencyP99Ms": *\([0-9.]*\).*/\1/p' "$json") ms"
    echo
    echo "| process | threads | CPU s | µs per uplink |"
    echo "|---|---|---|---|"
    awk -v n="$accepted" -v hz="$(getconf CLK_TCK)" -v top="$TOP" '
      FNR == NR { before[$1 " " $2] += $3; next }
      { after[$1 " " $2] += $3 }
      END {
        for (k in after) { d = after[k] - before[k]; if (d > 0) { delta[k] = d; total += d } }
        m = 0
        for (k in delta) keys[++m] = k
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (delta[keys[j]] > delta[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
        for (i = 1; i <= m && i <= top; i++) {
          split(keys[i], p, " ")
          printf "| %s | %s | %.2f | %.1f |\n", p[1], p[2], delta[keys[i]] / hz, delta[keys[i]] / hz * 1e6 / n
        }
        printf "| **all** | | **%.2f** | **%.1f** |\n", total / hz, total / hz * 1e6 / n
      }' "$OUT/window-$w.before" "$OUT/window-$w.after"
  done
} > "$REPORT"
echo "report: $REPORT"
