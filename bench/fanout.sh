#!/usr/bin/env bash
# WebSocket fan-out (issue 6; seeds 000 and 004) on a throwaway embedded stack, with bench/wsload as the
# subscriber load client: one publisher posts uplinks to one channel at RATE/s, SUBSCRIBERS dashboards
# subscribed to that channel receive them. Writes docs/benchmarks/fanout.md and the raw JSON next to it.
#   bench/fanout.sh                      all three scenarios at full size (about 10 minutes)
#   SCENARIOS="1000x1" DURATION_1000x1=30s bench/fanout.sh    one scenario, shorter
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

export SCENARIOS=${SCENARIOS:-"1000x1 8000x10 10000x1"}
export RAW=docs/benchmarks/raw/fanout
mkdir -p "$RAW"

# Runs under the stack (bench_stack): every scenario, one after the other.
scenarios() {
  local scenario subscribers rate duration
  for scenario in $SCENARIOS; do
    subscribers=${scenario%x*}; rate=${scenario#*x}
    case $scenario in
      1000x1) duration=${DURATION_1000x1:-5m} ;;
      8000x10) duration=${DURATION_8000x10:-60s} ;;
      10000x1) duration=${DURATION_10000x1:-60s} ;;
      *) duration=${DURATION_OTHER:-60s} ;;
    esac
    echo "== $subscribers subscribers x $rate msg/s for $duration"
    ./pipeline wsload -ws "$WS_URL" -ingest "$INGEST_URL" \
      -subscribers "$subscribers" -rate "$rate" -duration "$duration" -connect-rate 1000 \
      -report "$RAW/$scenario.json" | tail -n +1
    curl -s "$NOTIFY_URL/actuator/prometheus" | grep -E '^notify_(messages_dropped|send_buffer)' > "$RAW/$scenario.metrics.txt" || true
    sleep 5
  done
}

IOT_JAVA_OPTS=${IOT_JAVA_OPTS:--Xmx3g} bench_stack "/tmp/iot-pipeline-bench-fanout-$$.log" scenarios
./pipeline report fanout "$RAW" > docs/benchmarks/fanout.md
cat docs/benchmarks/fanout.md
