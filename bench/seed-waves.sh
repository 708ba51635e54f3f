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
# GEN=go replaces k6 with the same shape in Go (bench/postload -closed: 500 goroutines that start together, POST,
# read the answer, sleep 1 s, 60 times; bench/wsload listening on the run's channel for time_lapse), a third of
# k6's CPU per POST: what the stack makes of the seed's waves when the generator is not the bottleneck; with WAVES=1
# as well, every second's POSTs are released together as the first second's are (postload -waves), so that one run
# holds sixty first waves rather than one. COLD=1 (stack only) measures the first run right after READY instead of
# the run after a warm-up. With a stack, the report also gives the stack's own CPU per POST over the measured run
# (bench/lib.sh's part_cpu, every part but the generator).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export OUT=${OUT:-docs/benchmarks/raw/seed-waves}
export TARGET=${TARGET:-stack} GEN=${GEN:-k6} COLD=${COLD:-}
REPORT=${REPORT:-docs/benchmarks/seed-waves.md} FIRST=${FIRST:-10}
case $GEN in
  k6) ;;
  go) (cd bench/postload && go build -o postload .) && (cd bench/wsload && go build -o wsload .) ;;
  *) echo "GEN is k6 or go, not $GEN" >&2; exit 2 ;;
esac

# go_run DIR: the seed shape from bench/postload and bench/wsload on a fresh channel, samples and reports into DIR.
go_run() {
  local dir=$1 channel="seed-waves-go-$RANDOM$RANDOM" devices=500 iterations=60 stored=0 i
  mkdir -p "$dir"
  # Listens through the 60 s of waves (and the answers' own time) and 10 s more for the last deliveries.
  bench/wsload/wsload -ws "$WS_URL" -token "$DASHBOARD_TOKEN" -channel "$channel" -subscribers 1 -rate 0 \
    -duration 65s -drain 10s -samples "$dir/lapse.txt" -report "$dir/wsload.json" > "$dir/wsload.log" 2>&1 &
  sleep 0.5
  # No pre-opened connections: k6's VUs open theirs with their first POST, in the first wave.
  bench/postload/postload -closed ${WAVES:+-waves} -devices "$devices" -iterations "$iterations" -interval 1s \
    -preconnect=false -url "$INGEST_URL" -key "$DEVICE_KEY" -channel "$channel" -device-prefix seed-go- \
    -samples "$dir/posts.txt" -report "$dir/postload.json" > "$dir/postload.log" 2>&1 || echo "postload exit $?" >> "$dir/../failures.txt"
  wait || echo "wsload exit $?" >> "$dir/../failures.txt"
  for i in $(seq 60); do
    stored=$(stored_count "$channel") || true
    [ "${stored:-0}" -lt $((devices * iterations)) ] || break
    sleep 1
  done
  echo "${stored:-0}" > "$dir/stored.txt"
}
export -f go_run

# Runs under the stack (bench_stack): the warm-up run (none with COLD=1 or TARGET=null), then the measured one, into $1.
measure() {
  local dir=$1 cpu
  if [ "$TARGET" = stack ] && [ "$COLD" != 1 ]; then
    if [ "$GEN" = go ]; then
      go_run "$dir/warmup" > /dev/null
      rm -f "$dir/warmup/posts.txt" "$dir/warmup/lapse.txt"
    else
      RUN_DIR="$dir/warmup" k6/run suite1-closed-loop > "$dir/warmup.log" 2>&1 \
        || echo "k6 exit $? (warm-up)" >> "$dir/failures.txt"
    fi
  fi
  [ "$TARGET" = null ] || part_cpu > "$dir/cpu0.txt"
  # `times` in the subshell: the user and system seconds of the children it waited for (the generator's processes).
  if [ "$GEN" = go ]; then
    cpu=$( { go_run "$dir/go"; times; } | tail -1)
    gzip -c "$dir/go/posts.txt" > "$dir/posts.txt.gz"
    gzip -c "$dir/go/lapse.txt" > "$dir/time-lapse.txt.gz"
    rm "$dir/go/posts.txt" "$dir/go/lapse.txt"
  else
    cpu=$( { RUN_DIR="$dir/k6" K6_CSV_TIME_FORMAT=unix_milli k6/run suite1-closed-loop --out csv="$dir/samples.csv.gz" \
        > "$dir/k6.log" 2>&1 || echo "k6 exit $?" >> "$dir/failures.txt"; times; } | tail -1)
  fi
  if [ "$TARGET" != null ]; then
    part_cpu > "$dir/cpu1.txt"
    join "$dir/cpu0.txt" "$dir/cpu1.txt" | awk '{ s += $4 - $2 } END { printf "%.2f\n", s }' > "$dir/stack-cpu-s.txt"
    rm "$dir/cpu0.txt" "$dir/cpu1.txt"
  fi
  echo "$cpu" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "%.2f\n", s }' > "$dir/gen-cpu-s.txt"
  if [ "$GEN" = go ]; then return; fi
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
  echo "$GEN" > "$OUT/gen.txt"
  echo "$COLD" > "$OUT/cold.txt"
  echo "${WAVES:-}" > "$OUT/waves.txt"
  for run in $(seq 1 "$RUNS"); do
    mkdir -p "$OUT/run-$run"
    echo "seed-waves run $run of $RUNS"
    if [ "$TARGET" = null ]; then
      (cd bench/nullserver && go build -o nullserver .)
      bench/nullserver/nullserver -addr 127.0.0.1:28090 -feed & null=$!
      INGEST_URL=http://127.0.0.1:28090 NOTIFY_URL=http://127.0.0.1:28090 WS_URL=ws://127.0.0.1:28090/ws \
        DEVICE_KEY=demo-device-key DASHBOARD_TOKEN=demo-dashboard-token measure "$OUT/run-$run" || true
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

# The generator and the phase the raw runs were made with (written with them, so that REPORT_ONLY=1 reads them back).
if [ "${REPORT_ONLY:-}" = 1 ]; then
  GEN=$(cat "$OUT/gen.txt" 2>/dev/null || echo k6) COLD=$(cat "$OUT/cold.txt" 2>/dev/null || true)
  WAVES=$(cat "$OUT/waves.txt" 2>/dev/null || true)
fi
if [ "$GEN" = go ]; then gen="the Go generator"; else gen="k6"; fi
stack_cpu() { [ -f "$1/stack-cpu-s.txt" ] && awk -v c="$(cat "$1/stack-cpu-s.txt")" -v n="$2" 'BEGIN { printf "%.0f", c * 1e6 / n }' || echo -; }

rows=""
for run in $(seq 1 "$RUNS"); do
  dir=$OUT/run-$run tmp=$(mktemp -d)
  start=$(zcat "$dir/posts.txt.gz" | awk 'NR == 1 || $1 < m { m = $1 } END { print m }')
  split_samples "$dir/posts.txt.gz" "$tmp" post "$start"
  split_samples "$dir/time-lapse.txt.gz" "$tmp" lapse "$start"
  n=$(wc -l < "$tmp/post-all")
  g=$(awk -v c="$(cat "$dir/gen-cpu-s.txt" 2>/dev/null || cat "$dir/k6-cpu-s.txt")" -v n="$n" 'BEGIN { printf "%.0f", c * 1e6 / n }')
  rows+="| run-$run | $n | $(wc -l < "$tmp/lapse-all") | $(pct "$tmp/post-all" 50) / $(pct "$tmp/post-all" 99) | $(wc -l < "$tmp/post-first")"
  rows+=" | $(pct "$tmp/post-first" 50) / $(pct "$tmp/post-first" 99) | $(pct "$tmp/post-after" 50) / $(pct "$tmp/post-after" 95) / $(pct "$tmp/post-after" 99)"
  rows+=" | $(pct "$tmp/lapse-all" 95) / $(pct "$tmp/lapse-after" 95) / $(pct "$tmp/lapse-after" 99) | $g | $(stack_cpu "$dir" "$n") |"$'\n'
  echo "$(pct "$tmp/post-all" 99) $(pct "$tmp/post-after" 99) $(pct "$tmp/lapse-all" 95) $(pct "$tmp/lapse-after" 95) $g $(stack_cpu "$dir" "$n")" > "$dir/summary.txt"
  rm -rf "$tmp"
done
{
  echo "# Seed shape: where the POST p99 comes from"
  echo
  echo "- **Command:** \`${BENCH_PROCESSES:+BENCH_PROCESSES=1 }$([ "$TARGET" = stack ] || echo "TARGET=$TARGET ")$([ "$GEN" = k6 ] || echo "GEN=$GEN ")$([ "$COLD" != 1 ] || echo "COLD=1 ")${WAVES:+WAVES=1 }$([ "$FIRST" = 10 ] || echo "FIRST=$FIRST ")RUNS=$RUNS bench/seed-waves.sh\`"
  echo "- **Commit:** $(cat "$OUT/commit.txt"); $(nproc) cores; $(java -version 2>&1 | head -1)"
  if [ "$GEN" = go ]; then
    shape="\`bench/postload -closed\` (500 goroutines started together × 60: POST, read the answer, sleep 1 s; each sample timed in Go)"
    [ -z "${WAVES:-}" ] || shape="\`bench/postload -closed -waves\` (500 goroutines × 60: POST, read the answer, wait for the next 1 s tick, so that each second's 500 POSTs are released together as the first second's are; each sample timed in Go)"
    shape="$shape with \`bench/wsload\` subscribed to the run's channel for time_lapse (its receipt of each data unit)"
  else
    shape="\`k6/run suite1-closed-loop\` (500 VUs × 60: POST, sleep 1 s) measured with k6's per-sample CSV"
  fi
  if [ "$TARGET" = null ]; then
    echo "- **Server:** bench/nullserver -feed (Go: answers 202 at once and pushes each uplink at once to the WebSocket subscriber as a data unit of notify's size), no stack; $shape against it"
  elif [ "$COLD" = 1 ]; then
    echo "- **Stack:** \`./pipeline run --no-build${BENCH_PROCESSES:+ --processes}\`, fresh per run, measured cold: the first run right after READY; $shape"
  else
    echo "- **Stack:** \`./pipeline run --no-build${BENCH_PROCESSES:+ --processes}\`, fresh per run, warmed by one run of the same generator; then $shape"
  fi
  echo "- **Figures:** ms at $gen, split by when the sample was taken: the run's first $FIRST s (the first waves: 500 POSTs sent together, then spreading) and after. Generator CPU: user + system seconds of the measured run's generator processes (their WebSocket subscriber and final queries included) ÷ its POSTs; stack CPU: every part of the stack (bench/lib.sh's \`part_cpu\`) over the same run ÷ its POSTs"
  echo
  echo "| run | POSTs | delivered | POST all: p50 / p99 | first $FIRST s: POSTs | first $FIRST s: p50 / p99 | after: p50 / p95 / p99 | time_lapse p95 all / p95 after / p99 after | $gen CPU per POST, µs | stack CPU per POST, µs |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf "%s" "$rows"
  echo
  med_of() { cat "$OUT"/run-*/summary.txt | cut -d' ' -f"$1" | med; }
  echo "Medians over the runs: POST p99 $(med_of 1) ms over the whole run, $(med_of 2) ms after the first $FIRST s; time_lapse p95 $(med_of 3) ms, $(med_of 4) ms after the first $FIRST s; $gen CPU per POST $(med_of 5) µs; the stack's $(med_of 6) µs."
  ! compgen -G "$OUT/run-*/failures.txt" > /dev/null || { echo; echo "Failures: $(cat "$OUT"/run-*/failures.txt | paste -sd';')"; }
} > "$REPORT"
cat "$REPORT"
