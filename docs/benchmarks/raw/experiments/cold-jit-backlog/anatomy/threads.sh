#!/usr/bin/env bash
# The cold first seconds by thread: snapshots of the stack JVM's and the broker's threads at the load's start and
# 1, 2, 4, 8 s after; bench/postload -closed as seed-waves' GEN=go.
set -euo pipefail
cd /work/main
source bench/lib.sh
export A=${A:-/tmp/anat/a}
mkdir -p "$A"
inner() {
  local stack broker
  stack=$(listener_pid "$IOT_INGEST_PORT"); broker=$(listener_pid "$IOT_KAFKA_PORT")
  threads "stack=$stack" "broker=$broker" > "$A/t0"
  date +%s.%N > "$A/start"
  bench/postload/postload -closed -devices 500 -iterations 12 -interval 1s -preconnect=false \
    -url "$INGEST_URL" -key "$DEVICE_KEY" -channel anat-$RANDOM -device-prefix seed-go- -samples "$A/posts.txt" \
    -report "$A/postload.json" > "$A/postload.log" 2>&1 &
  for s in 0.5 1 2 4 8; do
    sleep "$(echo "$s $prev" | awk '{print $1-$2}')"; prev=$s
    threads "stack=$stack" "broker=$broker" > "$A/t$s"
  done
  wait
}
prev=0; export prev
export -f inner threads
bench_stack "$A/stack.log" inner
