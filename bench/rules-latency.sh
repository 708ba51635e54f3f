#!/usr/bin/env bash
# Rule POST to first alarm latency (issue 5) on a throwaway embedded stack; appends to docs/benchmarks/rules.md.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./pipeline env)"
export IOT_DATA_DIR; IOT_DATA_DIR=$(mktemp -d /tmp/iot-pipeline-bench.XXXXXX)
export IOT_INGEST_PORT=28080 IOT_DECODER_PORT=28081 IOT_RULES_PORT=28082 IOT_NOTIFY_PORT=28083
export IOT_KAFKA_PORT=29092 IOT_KAFKA_CONTROLLER_PORT=29093 IOT_POSTGRES_PORT=25433
./pipeline run --no-build > "$IOT_DATA_DIR/stack.log" 2>&1 &
stack=$!
trap 'kill -TERM $stack 2>/dev/null; wait $stack 2>/dev/null || true' EXIT
until grep -q '^READY' "$IOT_DATA_DIR/stack.log"; do kill -0 $stack; sleep 1; done
INGEST_URL=http://127.0.0.1:28080 RULES_URL=http://127.0.0.1:28082 NOTIFY_URL=http://127.0.0.1:28083 \
  REPORT_DIR=$IOT_DATA_DIR RULES=${RULES:-20} "$K6" run --quiet k6/rule-latency.js > "$IOT_DATA_DIR/k6.txt" 2>&1
line=$(grep '^rule_to_alarm' "$IOT_DATA_DIR/k6.txt")
{
  echo
  echo "## Rule to first alarm"
  echo
  echo "Command: \`bench/rules-latency.sh\` (k6/rule-latency.js, ${RULES:-20} rules, one after the other) on a"
  echo "throwaway embedded stack. For each rule: POST /rules, then at once a matching uplink; the figure is the"
  echo "time from the rule POST to the alarm arriving on notify-service's WebSocket, in ms:"
  echo
  echo "    $line"
} >> docs/benchmarks/rules.md
tail -4 docs/benchmarks/rules.md
