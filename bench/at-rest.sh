#!/usr/bin/env bash
# At rest (issue 26): one POST's answer time and its delivery to a WebSocket subscriber when the stack is warm but
# idle, on RUNS (3) fresh stacks. Under each: a warm-up of WARMUP at WARMUP_RATE single POSTs/s (bench/postload,
# not counted), a pause, then COUNT (1,000) POSTs spaced SPACING apart (0.1 s) by bench/wsload with one dashboard
# subscribed to their channel. wsload times each POST from sending it to reading the 202, and each delivery from
# ingest's receivedAt to the message read on the socket (one clock: both on this machine). Go clients, so the
# client's own wake-ups are not k6's. Raw JSON: docs/benchmarks/raw/at-rest/run-N.json; report:
# docs/benchmarks/at-rest.md (`bench/at-rest.sh --report-only` writes it again from the raw JSON). BENCH_PROCESSES=1 runs ./pipeline run --processes (then e.g.
# OUT=docs/benchmarks/raw/at-rest-processes REPORT=docs/benchmarks/at-rest-processes.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export WARMUP=${WARMUP:-30s} WARMUP_RATE=${WARMUP_RATE:-1000} PAUSE=${PAUSE:-5} COUNT=${COUNT:-1000}
export SPACING=${SPACING:-0.1} OUT=${OUT:-docs/benchmarks/raw/at-rest}
REPORT=${REPORT:-docs/benchmarks/at-rest.md}
if [ "${1:-}" != --report-only ]; then
  (cd bench/postload && go build -o postload .)
  (cd bench/wsload && go build -o wsload .)
  rm -rf "$OUT"
  mkdir -p "$OUT"
fi

# Runs under the stack (bench_stack): the warm-up, then the spaced POSTs, into $1.
measure() {
  local json=$1 rate duration
  bench/postload/postload -url "$INGEST_URL" -key "$DEVICE_KEY" -rate "$WARMUP_RATE" -devices 1000 \
    -duration "$WARMUP" > "$(dirname "$json")/warmup-$(basename "$json")"
  sleep "$PAUSE"
  rate=$(awk -v s="$SPACING" 'BEGIN {printf "%g", 1 / s}')
  duration=$(awk -v n="$COUNT" -v s="$SPACING" 'BEGIN {printf "%dms", n * s * 1000}')
  bench/wsload/wsload -ws "$WS_URL" -ingest "$INGEST_URL" -token "$DASHBOARD_TOKEN" -device-key "$DEVICE_KEY" \
    -subscribers 1 -devices 10 -rate "$rate" -duration "$duration" -drain 2s -report "$json" > /dev/null
}

for run in $(seq 1 "$RUNS"); do
  [ "${1:-}" != --report-only ] || break
  echo "at-rest run $run of $RUNS"
  bench_stack "$OUT/stack-$run.log" measure "$OUT/run-$run.json"
  rm -f "$OUT/stack-$run.log"
done

# field FILE NAME: a number from wsload's JSON report.
field() { sed -n "s/.*\"$2\": *\([0-9.eE+-]*\).*/\1/p" "$1" | head -1; }
# median NAME: the median of that field over the runs, then each run's value.
median() {
  local name=$1 values
  values=$(for f in "$OUT"/run-*.json; do field "$f" "$name"; done | sort -g)
  echo "$values" | awk '{a[NR]=$1} END {printf "%s", a[int((NR+1)/2)]}'
  echo " ($(echo "$values" | paste -sd/ | sed 's#/# / #g'))"
}
verdict() { awk -v v="$1" -v t="$2" 'BEGIN {print (v + 0 <= t + 0 ? "met" : "**not met**")}'; }

post=$(median postP50Ms) delivery=$(median latencyP50Ms)
{
  echo "# At rest: one POST's answer and its delivery to a WebSocket subscriber"
  echo
  echo "- **Command:** \`${BENCH_PROCESSES:+BENCH_PROCESSES=1 }RUNS=$RUNS bench/at-rest.sh\`" \
    "(WARMUP=$WARMUP at $WARMUP_RATE/s, then COUNT=$COUNT POSTs SPACING=$SPACING s apart)"
  echo "- **Machine:** $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1));" \
    "$(java -version 2>&1 | head -1); stack: \`./pipeline run${BENCH_PROCESSES:+ --processes}\`, fresh for each run"
  echo "- **Clients:** bench/wsload (Go) on the same machine: one keep-alive connection posting, one dashboard" \
    "subscribed to the channel. POST: request sent to 202 read. Delivery: ingest's receivedAt to the message read"
  echo "- **Figures:** medians over the runs in ms, each run's value in brackets (sorted)"
  echo
  echo "| target | result | verdict |"
  echo "|---|---|---|"
  echo "| one POST answered in ≤ 2 ms (p50) | ${post} | $(verdict "${post%% *}" 2) |"
  echo "| delivered to a WebSocket subscriber in ≤ 10 ms (p50) | ${delivery} | $(verdict "${delivery%% *}" 10) |"
  echo
  echo "| figure | p50 | p90 | p99 | max |"
  echo "|---|---|---|---|---|"
  echo "| POST | $(median postP50Ms) | $(median postP90Ms) | $(median postP99Ms) | $(median postMaxMs) |"
  echo "| delivery | $(median latencyP50Ms) | $(median latencyP90Ms) | $(median latencyP99Ms) | $(median latencyMaxMs) |"
  echo
  echo "Accepted / delivered / lost per run: $(for f in "$OUT"/run-*.json; do
    echo "$(field "$f" published) / $(field "$f" received) / $(field "$f" lost)"; done | paste -sd';' | sed 's/;/; /g')."
} > "$REPORT"
cat "$REPORT"
