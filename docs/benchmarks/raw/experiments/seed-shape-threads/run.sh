#!/usr/bin/env bash
# ad hoc: per-thread CPU over a warm seed-shape k6 run (in-JVM unless BENCH_PROCESSES=1)
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source bench/lib.sh
export OUT=${OUT:-/tmp/seedcpu/out}
rm -rf "$OUT"; mkdir -p "$OUT"
measure() {
  local stack broker postmaster
  stack=$(listener_pid "$IOT_INGEST_PORT")
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  postmaster=$(head -1 "$(find "$IOT_DATA_DIR" -name postmaster.pid | head -1)")
  RUN_DIR="$OUT/cold" k6/run suite1-closed-loop > "$OUT/cold.log" 2>&1 || true
  sleep 3
  threads "stack=$stack" "broker=$broker" "postgresql-tree=$postmaster" > "$OUT/before"
  head -1 /proc/stat > "$OUT/stat.before"
  java docs/benchmarks/raw/experiments/broker-requests/BrokerRequests.java "$broker" > "$OUT/req.before" || true
  date +%s.%N > "$OUT/warm.start"; ps -o lstart= -p $stack > "$OUT/jvm.start"
  ( RUN_DIR="$OUT/warm" /usr/bin/time -f "k6 %U %S" -o "$OUT/k6time" k6/run suite1-closed-loop > "$OUT/warm.log" 2>&1 || true )
  date +%s.%N > "$OUT/warm.end"
  threads "stack=$stack" "broker=$broker" "postgresql-tree=$postmaster" > "$OUT/after"
  head -1 /proc/stat > "$OUT/stat.after"
  java docs/benchmarks/raw/experiments/broker-requests/BrokerRequests.java "$broker" > "$OUT/req.after" || true
}
export -f threads measure
bench_stack "$OUT/stack.log" measure
awk -v hz="$(getconf CLK_TCK)" '
  FNR == NR { before[$1 " " $2] += $3; next }
  { after[$1 " " $2] += $3 }
  END { for (k in after) { d = after[k] - before[k]; if (d > 0) printf "%8.2f s %6.0f us  %s\n", d/hz, d/hz*1e6/30000, k } }' "$OUT/before" "$OUT/after" | sort -rn | head -30
awk '{ s = 0; for (i = 2; i <= NF; i++) s += $i; print $2+$3+$4+$7+$8, s }' "$OUT/stat.before" "$OUT/stat.after" | paste -sd' ' | awk -v hz="$(getconf CLK_TCK)" '{ printf "box busy %.2f s of %.2f s\n", ($3-$1)/hz, ($4-$2)/hz }'
cat "$OUT/k6time"
grep -E "http_req_duration\{|time_lapse\.|time_lapse " "$OUT/warm.log" | head
awk '$1=="req" {split($2,a,"/"); if (FNR==NR) b[a[1]]=$3; else printf "%-20s %8d  %.2f per uplink\n", a[1], $3-b[a[1]], ($3-b[a[1]])/30000}' "$OUT/req.before" "$OUT/req.after" | sort -k2 -rn | head -12
awk '$1=="topic" {k=$2" "$3; if (FNR==NR) b[k]=$4; else if ($4-b[k] > 0) printf "%-28s %-28s %10d\n", $2, $3, $4-b[k]}' "$OUT/req.before" "$OUT/req.after" | sort
awk -v hz="$(getconf CLK_TCK)" 'FNR == NR { b[$1] += $3; next } { a[$1] += $3 } END { for (k in a) printf "TOTAL %-10s %6.2f s %5.0f us\n", k, (a[k]-b[k])/hz, (a[k]-b[k])/hz*1e6/30000 }' "$OUT/before" "$OUT/after"
