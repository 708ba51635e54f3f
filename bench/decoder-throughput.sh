#!/usr/bin/env bash
# Decoder topic-to-topic throughput (issue 4): a throwaway embedded stack takes batched EM300-TH uplinks as
# fast as k6 can post them for DURATION; the decoder's own counter gives data units written per second over
# that window, and over the 20 s after k6 stops, when it drains the backlog with the machine to itself.
# Appends to docs/benchmarks/decoder.md. Usage: [DURATION=60s] bench/decoder-throughput.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export DURATION=${DURATION:-60s}
source bench/lib.sh

# Runs under the stack (bench_stack): measures and appends the section.
measure() {
  decoded() {
    curl -s "$DECODER_URL/actuator/prometheus" | awk '/^decoder_data_units_total/ {s += $2} END {printf "%d", s}'
  }
  # n / seconds, rounded, with thousands separators (seconds given in ns).
  per_second() {
    local n=$(( ($1 * 2000000000 + $2) / ($2 * 2) )) out=""
    while [ ${#n} -gt 3 ]; do out=",${n: -3}$out"; n=${n:0:${#n}-3}; done
    echo "$n$out"
  }
  local before after drained t0 t1 posted rate drain
  before=$(decoded); t0=$(date +%s%N)
  MODE=batch REPORT_DIR=$IOT_DATA_DIR "$K6" run --quiet k6/ingest-throughput.js > "$IOT_DATA_DIR/k6.txt" 2>&1 || true
  after=$(decoded); t1=$(date +%s%N)
  posted=$(awk '/^uplinks_accepted/ {print $2}' "$IOT_DATA_DIR/k6.txt")
  sleep 20; drained=$(decoded)
  rate=$(per_second $((after - before)) $((t1 - t0)))
  drain=$(per_second $((drained - after)) 20000000000)
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
}

# Rules-service is not started, so it does not compete with ingest and the decoder for the two cores.
SPRING_KAFKA_STREAMS_AUTOSTARTUP=false bench_stack "/tmp/iot-pipeline-bench-stack-$$.log" measure
tail -8 docs/benchmarks/decoder.md
