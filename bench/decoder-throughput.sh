#!/usr/bin/env bash
# Decoder topic-to-topic throughput (issue 4): a throwaway embedded stack takes batched EM300-TH uplinks as
# fast as k6 can post them for DURATION; the decoder's own counter over the same window gives data units
# written per second, and the final consumer lag shows whether it kept up. Appends to
# docs/benchmarks/decoder.md. Usage: [DURATION=60s] bench/decoder-throughput.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-60s}
eval "$(./pipeline env)"
export IOT_DATA_DIR; IOT_DATA_DIR=$(mktemp -d /tmp/iot-pipeline-bench.XXXXXX)
export IOT_INGEST_PORT=28080 IOT_DECODER_PORT=28081 IOT_RULES_PORT=28082 IOT_NOTIFY_PORT=28083
export IOT_KAFKA_PORT=29092 IOT_KAFKA_CONTROLLER_PORT=29093 IOT_POSTGRES_PORT=25433
# Only ingest and the decoder consume CPU: the history writer and rules would compete for the two cores.
SPRING_KAFKA_STREAMS_AUTOSTARTUP=false ./pipeline run --no-build > "$IOT_DATA_DIR/stack.log" 2>&1 &
stack=$!
trap 'kill -TERM $stack 2>/dev/null; wait $stack 2>/dev/null || true' EXIT
until grep -q '^READY' "$IOT_DATA_DIR/stack.log"; do kill -0 $stack; sleep 1; done
decoded() {
  curl -s http://127.0.0.1:28081/actuator/prometheus | awk '/^decoder_data_units_total/ {s += $2} END {printf "%d", s}'
}
before=$(decoded); t0=$(date +%s.%N)
MODE=batch DURATION=$DURATION INGEST_URL=http://127.0.0.1:28080 REPORT_DIR=$IOT_DATA_DIR \
  "$K6" run --quiet k6/ingest-throughput.js > "$IOT_DATA_DIR/k6.txt" 2>&1 || true
after=$(decoded); t1=$(date +%s.%N)
posted=$(awk '/^uplinks_accepted/ {print $2}' "$IOT_DATA_DIR/k6.txt")
sleep 20; drained=$(decoded)
rate=$(python3 -c "print(f'{($after - $before) / ($t1 - $t0):,.0f}')")
drain=$(python3 -c "print(f'{($drained - $after) / 20:,.0f}')")
{
  echo
  echo "## Decoder throughput, topic to topic"
  echo
  echo "Command: \`DURATION=$DURATION bench/decoder-throughput.sh\`. k6 posted $posted EM300-TH uplinks in batches"
  echo "of 100 for $DURATION while ingest, the broker, the decoder (one consumer, 3 partitions), the history"
  echo "writer and k6 shared the two cores. The decoder wrote **$rate data units/s** over that window"
  echo "($((after - before)) in all). In the 20 s after k6 stopped, with only the decoder and history writer"
  echo "left working, it wrote **$drain data units/s** ($((drained - after)) more)."
} >> docs/benchmarks/decoder.md
tail -8 docs/benchmarks/decoder.md
