#!/usr/bin/env bash
# Latency in seed 003's own shape (k6/run suite1-closed-loop: 500 closed-loop VUs, POST then sleep 1 s, 60 times),
# cold and warm, on RUNS (3) fresh stacks: each stack's first run is the cold one (no warm-up step), the run right
# after it the warm one. Around each run every service's /actuator/prometheus is scraped, so the report splits the
# time by hop. Raw results: docs/benchmarks/raw/latency/run-N/; report: docs/benchmarks/latency.md.
# Sizes pass through to k6 (e.g. EXTRA="-e DEVICES=100"); STACK_JAVA_OPTS sets the stack's JVM options;
# BENCH_PROCESSES=1 runs ./pipeline run --processes (then e.g. OUT=docs/benchmarks/raw/latency-processes
# REPORT=docs/benchmarks/latency-processes.md). The report ends with each stack's start time: ./pipeline run
# --no-build to READY, the services' and the broker's warm-up included (the banner's "started in").
# The stack reads the JDK AOT cache ./pipeline run trained, if it is fresh (./pipeline aot [--processes] first);
# IOT_AOT=off measures without it. SIDE_SUBSCRIBER=1 subscribes bench/wsload (Go, listening only) to each run's
# channel beside k6's own subscriber: its receipt times ($dir/<phase>-side.json) against k6's time_lapse say how much
# of time_lapse is k6 reading its socket on the shared cores. Each phase's CPU by process ($dir/<phase>-cpu.txt: part,
# seconds, of which JIT compiler threads; bench/lib.sh's part_cpu, and k6's own) is the report's CPU-per-uplink table.
# REPORT_ONLY=1 writes the report from the raw results in $OUT again, running nothing (RUNS: how many there are).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export OUT=${OUT:-docs/benchmarks/raw/latency} EXTRA=${EXTRA:-}
REPORT=${REPORT:-docs/benchmarks/latency.md}
[ -n "${STACK_JAVA_OPTS:-}" ] && export IOT_JAVA_OPTS=$STACK_JAVA_OPTS
[ "${REPORT_ONLY:-}" = 1 ] || { rm -rf "$OUT"; mkdir -p "$OUT"; }
if [ "${SIDE_SUBSCRIBER:-}" = 1 ]; then (cd bench/wsload && go build -o wsload .); fi

# The latency histograms of every service (only those: the report reads nothing else).
scrape() {
  local url
  for url in "$INGEST_URL" "$DECODER_URL" "$RULES_URL" "$NOTIFY_URL"; do
    curl -s "$url/actuator/prometheus" \
      | grep -E '^((pipeline_hop_latency|ingest_kafka_send|notify_delivery_latency)_seconds_bucket|http_server_requests_seconds_bucket\{.*method="POST".*status="202".*/encoded/)' || true
  done
}

# Runs under the stack (bench_stack): the two phases of one run, into $1.
measure() {
  local dir=$1 phase url k6_cpu t=$EPOCHREALTIME
  # The command starts right after READY: ./pipeline run --no-build to READY on the wall clock, JVM start included.
  echo "$(( (${t/[.,]/} - STACK_LAUNCHED_US) / 1000 ))" > "$dir/ready-ms.txt"
  for phase in cold warm; do
    scrape > "$dir/$phase-before.prom"
    local channel side="" k6_extra=""
    if [ "${SIDE_SUBSCRIBER:-}" = 1 ]; then
      channel="latency-$phase-$RANDOM$RANDOM"
      # Listens for as long as the suite sends (3 s after it starts, 60 s) and drains for 10 s more.
      bench/wsload/wsload -ws "$WS_URL" -token "$DASHBOARD_TOKEN" -channel "$channel" -subscribers 1 -rate 0 \
        -duration 65s -drain 10s -report "$dir/$phase-side.json" > "$dir/$phase-side.log" 2>&1 &
      side=$!
      sleep 0.5
      k6_extra="-e CHANNEL=$channel"
    fi
    part_cpu > "$dir/$phase-cpu0.txt"
    # `times` in the subshell: the user and system seconds of the children it waited for (k6/run and k6 itself).
    # shellcheck disable=SC2086
    k6_cpu=$( { RUN_DIR="$dir/$phase" k6/run suite1-closed-loop $EXTRA $k6_extra > "$dir/$phase.log" 2>&1 \
      || echo "k6 exit $? ($phase)" >> "$dir/failures.txt"; times; } | tail -1)
    part_cpu > "$dir/$phase-cpu1.txt"
    {
      join "$dir/$phase-cpu0.txt" "$dir/$phase-cpu1.txt" | awk '{printf "%s %.2f %.2f\n", $1, $4 - $2, $5 - $3}'
      echo "$k6_cpu" | awk '{ for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } printf "k6 %.2f 0\n", s }'
    } > "$dir/$phase-cpu.txt"
    rm "$dir/$phase-cpu0.txt" "$dir/$phase-cpu1.txt"
    [ -z "$side" ] || wait "$side" || echo "wsload exit $? ($phase)" >> "$dir/failures.txt"
    scrape > "$dir/$phase-after.prom"
  done
}

for run in $(seq 1 "$RUNS"); do
  [ "${REPORT_ONLY:-}" != 1 ] || break
  mkdir -p "$OUT/run-$run"
  echo "latency run $run of $RUNS"
  export -f scrape
  t=$EPOCHREALTIME
  export STACK_LAUNCHED_US=${t/[.,]/}
  bench_stack "$OUT/run-$run/stack.log" measure "$OUT/run-$run"
  grep -o 'started in [0-9.]* s' "$OUT/run-$run/stack.log" | head -1 | grep -o '[0-9.]*' > "$OUT/run-$run/started-s.txt" || true
  rm -f "$OUT/run-$run/stack.log" "$OUT"/run-"$run"/*/dashboard.html
done
command="${IOT_AOT:+IOT_AOT=$IOT_AOT }${BENCH_PROCESSES:+BENCH_PROCESSES=1 }RUNS=$RUNS bench/latency.sh${EXTRA:+ (EXTRA=$EXTRA)}"
./pipeline report latency "$OUT" "$command" > "$REPORT"
{
  echo
  echo "## Start time"
  echo
  echo "\`./pipeline run --no-build${BENCH_PROCESSES:+ --processes}\` to READY (the banner's \"started in\", warm-up included), per run:" \
    "$(cat "$OUT"/run-*/started-s.txt | sort -n | paste -sd, | sed 's/,/ s, /g') s;" \
    "median $(cat "$OUT"/run-*/started-s.txt | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') s;" \
    "on the wall clock from the command (JVM start and the script included):" \
    "$(cat "$OUT"/run-*/ready-ms.txt | sort -n | awk '{printf "%s%.1f s", (NR > 1 ? ", " : ""), $1 / 1000}');" \
    "median $(cat "$OUT"/run-*/ready-ms.txt | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)] / 1000}') s."
} >> "$REPORT"
cat "$REPORT"
