#!/usr/bin/env bash
# Ingest benchmark (issue 3). Two phases on throwaway embedded stacks, each scenario RUNS times:
#   A. ingest alone (downstream consumers not started, broker acks=all as always): the HTTP ceiling
#      (/bench/noop, 202 without Kafka), single-uplink max rate, batched max rate, latency at RATE/s;
#   B. the whole pipeline consuming at the same time: single-uplink max rate and latency at RATE/s.
# Writes docs/benchmarks/ingest.md (medians) from the k6 JSON summaries kept next to it.
# Usage: [RUNS=3] [DURATION=60s] [VUS=128] [RATE=1000] bench/ingest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3} DURATION=${DURATION:-60s} VUS=${VUS:-128} RATE=${RATE:-1000}
OUT=${OUT:-docs/benchmarks/raw/ingest-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"
eval "$(./pipeline env)"
{ "$K6" version; java -version 2>&1 | head -1; echo "cores: $(nproc)"; } > "$OUT/env.txt"
export INGEST_BENCH_NOOPENDPOINT=true INGEST_URL=http://127.0.0.1:28080 REPORT_DIR=$OUT
export IOT_INGEST_PORT=28080 IOT_DECODER_PORT=28081 IOT_RULES_PORT=28082 IOT_NOTIFY_PORT=28083
export IOT_KAFKA_PORT=29092 IOT_KAFKA_CONTROLLER_PORT=29093 IOT_POSTGRES_PORT=25433

stack=""
stop_stack() {
  [ -n "$stack" ] && kill -TERM "$stack" 2>/dev/null && wait "$stack" 2>/dev/null || true
  stack=""
}
trap stop_stack EXIT

start_stack() { # $1 = phase name; remaining env decides what runs
  export IOT_DATA_DIR; IOT_DATA_DIR=$(mktemp -d /tmp/iot-pipeline-bench.XXXXXX)
  ./pipeline run --no-build > "$OUT/stack-$1.log" 2>&1 &
  stack=$!
  until grep -q '^READY' "$OUT/stack-$1.log"; do kill -0 "$stack"; sleep 1; done
}

scenario() { # $1 = phase, $2 = mode, $3 = run
  echo "phase $1 run $3: $2" >&2
  PHASE=$1 MODE=$2 RUN="$1-$3" DURATION=$DURATION VUS=$VUS RATE=$RATE "$K6" run --quiet k6/ingest-throughput.js \
    > "$OUT/ingest-$2-$1-$3.txt" 2>&1 || echo "phase $1 run $3 $2: thresholds failed" >&2
}

SPRING_KAFKA_LISTENER_AUTOSTARTUP=false SPRING_KAFKA_STREAMS_AUTOSTARTUP=false start_stack alone
for run in $(seq 1 "$RUNS"); do
  for mode in noop single batch latency; do scenario alone "$mode" "$run"; done
done
stop_stack

start_stack pipeline
for run in $(seq 1 "$RUNS"); do
  for mode in single latency; do scenario pipeline "$mode" "$run"; done
done
stop_stack

rm -f "$OUT"/stack-*.log
python3 bench/report_ingest.py "$OUT" "RUNS=$RUNS DURATION=$DURATION VUS=$VUS RATE=$RATE bench/ingest.sh" \
  > docs/benchmarks/ingest.md
cat docs/benchmarks/ingest.md
