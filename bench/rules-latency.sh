#!/usr/bin/env bash
# Rule POST to first alarm latency (issue 5) on a throwaway embedded stack; appends to docs/benchmarks/rules.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
export RULES=${RULES:-20}

# Runs under the stack (bench_stack): measures and appends the section.
measure() {
  local line
  REPORT_DIR=$IOT_DATA_DIR "$K6" run --quiet k6/rule-latency.js > "$IOT_DATA_DIR/k6.txt" 2>&1
  line=$(grep '^rule_to_alarm' "$IOT_DATA_DIR/k6.txt")
  {
    echo
    echo "## Rule to first alarm"
    echo
    echo "Command: \`bench/rules-latency.sh\` (k6/rule-latency.js, $RULES rules, one after the other) on a"
    echo "throwaway embedded stack. For each rule: POST /rules, then at once a matching uplink; the figure is the"
    echo "time from the rule POST to the alarm arriving on notify-service's WebSocket, in ms:"
    echo
    echo "    $line"
  } >> docs/benchmarks/rules.md
}

bench_stack "/tmp/iot-pipeline-bench-stack-$$.log" measure
tail -4 docs/benchmarks/rules.md
