#!/usr/bin/env bash
# Where the seed shape's POST p99 comes from (issue 26). Seed 003 suite 1 (k6/run suite1-closed-loop: 500 closed-loop
# VUs that all start at once, POST then sleep 1 s, 60 times) on RUNS (3) fresh stacks, each warmed by one run of the
# suite first, then measured with k6's per-sample CSV and k6's own CPU time. The report splits the POSTs by the
# second of the run they were answered in: the 500 VUs start in step, so the first seconds hold waves of 500 POSTs
# sent together, which later spread over the whole second as answers of different lengths put the VUs out of
# step. k6's CPU per request is the generator's share of every wave, on the same two cores as the stack.
# Raw: $OUT/run-N/ (k6 summary, POST and time_lapse samples, k6's CPU); report: $REPORT. BENCH_PROCESSES=1 runs
# --processes; FIRST (10) is where the split falls, in seconds; REPORT_ONLY=1 writes the report from $OUT again.
# TARGET=null runs the same k6 suite against bench/nullserver -feed (Go: 202 at once, and each uplink pushed at once
# to the WebSocket subscriber as a data unit) instead of a stack, with no warm-up: what the shape and the generator
# alone make of the POST and time_lapse latencies on these cores, every hop costing nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export OUT=${OUT:-docs/benchmarks/raw/seed-waves}
export TARGET=${TARGET:-stack}
REPORT=${REPORT:-docs/benchmarks/seed-waves.md} FIRST=${FIRST:-10}

# Runs under the stack (bench_stack): the warm-up run, then the measured one, into $1.
measure() {
  local dir=$1 cpu
  [ "$TARGET" = null ] || RUN_DIR="$dir/warmup" k6/run suite1-closed-loop > "$dir/warmup.log" 2>&1 \
    || echo "k6 exit $? (warm-up)" >> "$dir/failures.txt"
  # `times` in the subshell: the user and system seconds of the children it waited for (k6/run and k6 itself).
  cpu=$( { RUN_DIR="$dir/k6" K6_CSV_TIME_FORMAT=unix_milli k6/run suite1-closed-loop --out csv="$dir/samples.csv.gz" \
      > "$dir/k6.log" 2>&1 || echo "k6 exit $?" >> "$dir/failures.txt"; times; } | tail -1)
  echo "$cpu" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%.2f\n", s }' > "$dir/k6-cpu-s.txt"
  rm -f "$dir"/*/dashboard.html
  # Only the POSTs of the ingestion scenario and every time_lapse: time of the sample (ms since the epoch), value.
  zcat "$dir/samples.csv.gz" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["metric_name"] == "http_req_duration" && $c["scenario"] == "ingestion" { print $c["timestamp"], $c["metric_value"] }' \
    | gzip > "$dir/posts.txt.gz"
  zcat "$dir/samples.csv.gz" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["metric_name"] == "time_lapse" { print $c["timestamp"], $c["metric_value"] }' | gzip > "$dir/time-lapse.txt.gz"
  rm -f "$dir/samples.csv.gz"
}

if [ "${REPORT_ONLY:-}" != 1 ]; then
  rm -rf "$OUT"
  mkdir -p "$OUT"
  echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo ' (uncommitted changes)')" > "$OUT/commit.txt"
  for run in $(seq 1 "$RUNS"); do
    mkdir -p "$OUT/run-$run"
    echo "seed-waves run $run of $RUNS"
    if [ "$TARGET" = null ]; then
      (cd bench/nullserver && go build -o nullserver .)
      bench/nullserver/nullserver -addr 127.0.0.1:28090 -feed & null=$!
      INGEST_URL=http://127.0.0.1:28090 NOTIFY_URL=http://127.0.0.1:28090 WS_URL=ws://127.0.0.1:28090/ws \
        measure "$OUT/run-$run" || true
      kill "$null"
    else
      bench_stack "$OUT/run-$run/stack.log" measure "$OUT/run-$run"
      rm -f "$OUT/run-$run/stack.log"
    fi
  done
fi

# pct FILE P: the P-th percentile (nearest rank) of the numbers in FILE, one per line.
pct() { [ -s "$1" ] || { echo "-"; return 0; }; sort -n "$1" | awk -v p="$2" '{ a[NR] = $1 } END { if (NR == 0) { print "-"; exit } i = int(p / 100 * NR + 0.999999); if (i < 1) i = 1; printf "%.1f", a[i] }'; }
med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# split_samples FILE.gz DIR NAME START: NAME-all, NAME-first (answered in the FIRST s after START) and NAME-after in DIR.
split_samples() {
  zcat "$1" | awk -v s="$4" -v f="$FIRST" -v out="$2/$3" \
    '{ print $2 > (out "-all"); print $2 > (($1 - s < f * 1000) ? out "-first" : out "-after") }'
}

rows=""
for run in $(seq 1 "$RUNS"); do
  dir=$OUT/run-$run tmp=$(mktemp -d)
  start=$(zcat "$dir/posts.txt.gz" | awk 'NR == 1 || $1 < m { m = $1 } END { print m }')
  split_samples "$dir/posts.txt.gz" "$tmp" post "$start"
  split_samples "$dir/time-lapse.txt.gz" "$tmp" lapse "$start"
  n=$(wc -l < "$tmp/post-all")
  k6=$(awk -v c="$(cat "$dir/k6-cpu-s.txt")" -v n="$n" 'BEGIN { printf "%.0f", c * 1e6 / n }')
  rows+="| run-$run | $n | $(pct "$tmp/post-all" 50) / $(pct "$tmp/post-all" 99) | $(wc -l < "$tmp/post-first")"
  rows+=" | $(pct "$tmp/post-first" 50) / $(pct "$tmp/post-first" 99) | $(pct "$tmp/post-after" 50) / $(pct "$tmp/post-after" 95) / $(pct "$tmp/post-after" 99)"
  rows+=" | $(pct "$tmp/lapse-all" 95) / $(pct "$tmp/lapse-after" 95) / $(pct "$tmp/lapse-after" 99) | $k6 |"$'\n'
  echo "$(pct "$tmp/post-all" 99) $(pct "$tmp/post-after" 99) $(pct "$tmp/lapse-all" 95) $(pct "$tmp/lapse-after" 95) $k6" > "$dir/summary.txt"
  rm -rf "$tmp"
done
{
  echo "# Seed shape: where the POST p99 comes from"
  echo
  echo "- **Command:** \`${BENCH_PROCESSES:+BENCH_PROCESSES=1 }$([ "$TARGET" = stack ] || echo "TARGET=$TARGET ")RUNS=$RUNS bench/seed-waves.sh\`"
  echo "- **Commit:** $(cat "$OUT/commit.txt"); $(nproc) cores; $(java -version 2>&1 | head -1)"
  if [ "$TARGET" = null ]; then
    echo "- **Server:** bench/nullserver -feed (Go: answers 202 at once and pushes each uplink at once to the WebSocket subscriber as a data unit of notify's size), no stack; \`k6/run suite1-closed-loop\` (500 VUs × 60: POST, sleep 1 s) against it, measured with k6's per-sample CSV"
  else
    echo "- **Stack:** \`./pipeline run --no-build${BENCH_PROCESSES:+ --processes}\`, fresh per run, warmed by one run of the suite; then \`k6/run suite1-closed-loop\` (500 VUs × 60: POST, sleep 1 s) measured with k6's per-sample CSV"
  fi
  echo "- **Figures:** ms at k6, split by when the sample was taken: the run's first $FIRST s (the VUs' first waves: 500 POSTs sent together, then spreading) and after. k6 CPU: user + system seconds of the measured k6 run (its WebSocket subscriber, final queries and CSV output included) ÷ its POSTs"
  echo
  echo "| run | POSTs | POST all: p50 / p99 | first $FIRST s: POSTs | first $FIRST s: p50 / p99 | after: p50 / p95 / p99 | time_lapse p95 all / p95 after / p99 after | k6 CPU per POST, µs |"
  echo "|---|---|---|---|---|---|---|---|"
  printf "%s" "$rows"
  echo
  med_of() { cat "$OUT"/run-*/summary.txt | cut -d' ' -f"$1" | med; }
  echo "Medians over the runs: POST p99 $(med_of 1) ms over the whole run, $(med_of 2) ms after the first $FIRST s; time_lapse p95 $(med_of 3) ms, $(med_of 4) ms after the first $FIRST s; k6 CPU per POST $(med_of 5) µs."
  ! compgen -G "$OUT/run-*/failures.txt" > /dev/null || { echo; echo "Failures: $(cat "$OUT"/run-*/failures.txt | paste -sd';')"; }
} > "$REPORT"
cat "$REPORT"
