#!/usr/bin/env bash
# ad hoc: the decoder's polls and every consumer's lag under bench/throughput.sh's batched load (1,000 requests/s of 100
# uplinks) on one fresh in-JVM stack: after a warm-up of 20 s at 5,000 single POSTs/s, 40 s of batches; every 2 s
# each service's /actuator/prometheus is scraped for the Kafka consumers' lag and the decoder's listener calls
# (one per poll) and data units. Env: DECODER_KAFKA_BATCHESINFLIGHT reaches the decoder. Output: $OUT/.
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source bench/lib.sh
export OUT=${OUT:-/tmp/polls} POSTLOAD=$PWD/bench/postload/postload
rm -rf "$OUT"; mkdir -p "$OUT"
measure() {
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 5000 -batch 1 -devices 1000 -conns 1000 \
    -duration 20s -report "$OUT/warmup.json" > "$OUT/warmup.log" 2>&1
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 1000 -batch 100 -devices 1000 -conns 1000 \
    -duration 40s -report "$OUT/batched.json" > "$OUT/batched.log" 2>&1 &
  local gen=$! t=0
  while kill -0 $gen 2>/dev/null || [ $t -lt 100 ]; do
    for s in decoder notify rules; do
      case $s in decoder) u=$DECODER_URL ;; notify) u=$NOTIFY_URL ;; rules) u=$RULES_URL ;; esac
      curl -s "$u/actuator/prometheus" | grep -E '^(kafka_consumer_fetch_manager_records_lag_max|spring_kafka_listener_seconds_count|decoder_data_units_total|kafka_consumer_fetch_manager_records_per_request_avg|kafka_producer_record_send_total|kafka_producer_request_total|kafka_producer_batch_size_avg|kafka_producer_records_per_request_avg)' \
        | sed "s/^/$t $s /" >> "$OUT/metrics.txt" || true
    done
    sleep 2; t=$((t + 2))
    [ $t -ge 160 ] && break
  done
  wait $gen || true
}
bench_stack "$OUT/stack.log" measure
