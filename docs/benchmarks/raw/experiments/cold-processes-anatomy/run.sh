#!/usr/bin/env bash
# ad hoc: the cold seed-shape run with --processes, second by second: every k6 sample (time_lapse by its receipt
# time, POSTs by their end) and every JVM's threads' CPU every 2 s (ingest, decoder, rules, notify, broker, k6),
# the services' latency histograms every second for the first 20 s, then a warm run the same
# way. OUT (default /tmp/cold-anatomy) gets the raw files; analyse.py reads them.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source bench/lib.sh
export OUT=${OUT:-/tmp/cold-anatomy}
export BENCH_PROCESSES=${BENCH_PROCESSES-1}
rm -rf "$OUT"; mkdir -p "$OUT"
measure() {
  local entries=() port name phase sampler scraper
  for name in ingest:$IOT_INGEST_PORT decoder:$IOT_DECODER_PORT rules:$IOT_RULES_PORT notify:$IOT_NOTIFY_PORT broker:$IOT_KAFKA_PORT; do
    entries+=("${name%%:*}=$(listener_pid "${name#*:}")")
  done
  printf '%s\n' "${entries[@]}" > "$OUT/pids"
  for phase in cold warm; do
    (
      while true; do
        echo "@ $(now_us)"
        threads "${entries[@]}"
        for k6pid in $(pgrep -x k6); do threads "k6=$k6pid"; done
        sleep 1
      done
    ) > "$OUT/$phase-threads.txt" &
    sampler=$!
    # The latency histograms, once a second for the first 20 s, then every 5 s.
    (
      local n=0 url names=pipeline_hop_latency_seconds,ingest_kafka_send_seconds,notify_delivery_latency_seconds,http_server_requests_seconds
      while true; do
        echo "@ $(now_us)"
        for url in "$INGEST_URL" "$DECODER_URL" "$RULES_URL" "$NOTIFY_URL"; do
          curl -s "$url/actuator/prometheus?includedNames=$names" \
            | grep -E '^((pipeline_hop_latency|ingest_kafka_send|notify_delivery_latency)_seconds_bucket|http_server_requests_seconds_bucket\{.*method="POST".*status="202".*/encoded/)' || true
        done
        n=$((n + 1))
        if [ "$n" -lt 20 ]; then sleep 1; else sleep 5; fi
      done
    ) > "$OUT/$phase-hops.txt" &
    scraper=$!
    echo "$(now_us)" > "$OUT/$phase-start-us"
    K6_CSV_TIME_FORMAT=unix_milli RUN_DIR="$OUT/$phase" k6/run suite1-closed-loop --out "csv=$OUT/$phase-samples.csv.gz" > "$OUT/$phase.log" 2>&1 || true
    kill "$sampler" "$scraper"
  done
}
export -f threads measure
bench_stack "$OUT/stack.log" measure
python3 "$(dirname "$0")/analyse.py" "$OUT"
