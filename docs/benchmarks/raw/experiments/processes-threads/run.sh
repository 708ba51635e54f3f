#!/usr/bin/env bash
# CPU per uplink by process and thread group over a warm seed-shape run (k6/run suite1-closed-loop, after one run
# that warms the stack), in one mode: ARM=processes (BENCH_PROCESSES=1) or ARM=jvm. Writes $OUT/<arm>-<n>.tsv
# (process, thread group, µs per uplink) for run n.
# Usage, from the repository root: ARM=processes N=1 docs/benchmarks/raw/experiments/processes-threads/run.sh
set -euo pipefail
source bench/lib.sh
export OUT=${OUT:-docs/benchmarks/raw/experiments/processes-threads} ARM=${ARM:-processes} N=${N:-1}
[ "$ARM" = processes ] && export BENCH_PROCESSES=1

measure() {
  local roots="" part pid pg
  pg=$(head -1 "$(find "$IOT_DATA_DIR" -name postmaster.pid | head -1)")
  for part in ingest:$IOT_INGEST_PORT decoder:$IOT_DECODER_PORT rules:$IOT_RULES_PORT notify:$IOT_NOTIFY_PORT \
      broker:$IOT_KAFKA_PORT; do
    pid=$(listener_pid "${part#*:}")
    # In one JVM the services share a pid: name it once.
    case " $roots " in *"=$pid "*) ;; *) roots+=" ${part%%:*}=$pid" ;; esac
  done
  case " $roots " in *"=$PPID "*) ;; *) roots+=" launcher=$PPID" ;; esac
  roots+=" postgresql-tree=$pg"
  k6/run suite1-closed-loop > "$OUT/$ARM-$N-warmup.log" 2>&1
  # shellcheck disable=SC2086
  threads $roots > "$OUT/$ARM-$N.before"
  local t0=$EPOCHREALTIME
  k6_cpu=$( { k6/run suite1-closed-loop > "$OUT/$ARM-$N-k6.log" 2>&1; times; } | tail -1)
  # shellcheck disable=SC2086
  threads $roots > "$OUT/$ARM-$N.after"
  echo "$k6_cpu" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "k6 k6 %.0f\n", s * 100 }' >> "$OUT/$ARM-$N.after"
  echo "$t0 $EPOCHREALTIME" > "$OUT/$ARM-$N.window"
}
export -f threads measure
bench_stack "$OUT/$ARM-$N-stack.log" measure
rm -f "$OUT/$ARM-$N-stack.log"
awk -v n=30000 -v hz="$(getconf CLK_TCK)" '
  FNR == NR { before[$1 " " $2] += $3; next }
  { after[$1 " " $2] += $3 }
  END { for (k in after) { d = after[k] - before[k]; if (d > 0) { split(k, p, " "); printf "%s\t%s\t%.1f\n", p[1], p[2], d / hz * 1e6 / n } } }' \
  "$OUT/$ARM-$N.before" "$OUT/$ARM-$N.after" | sort -t$'\t' -k3,3 -gr > "$OUT/$ARM-$N.tsv"
rm -f "$OUT/$ARM-$N.before" "$OUT/$ARM-$N.after"
grep -h "checks\|http_req_failed\|time_lapse" "$OUT/$ARM-$N-k6.log" | head -5 || true
