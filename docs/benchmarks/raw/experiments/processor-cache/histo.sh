#!/usr/bin/env bash
# Heap composition of the stack JVM after 90 s at 5,000 POSTs/s: all objects (garbage in the old generation included), then live only.
cd /work/main
source bench/lib.sh
export POSTLOAD=$PWD/bench/postload/postload
histo() {
  stack=$(listener_pid "$IOT_INGEST_PORT")
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 5000 -batch 1 -devices 1000 -conns 1000 -duration 90s -report /tmp/histo-load.json >/dev/null 2>&1 &
  load=$!
  sleep 80
  jstat -gc "$stack" > /tmp/histo-gc-before.txt
  jmap -histo "$stack" > /tmp/histo-all.txt
  jstat -gc "$stack" >> /tmp/histo-gc-before.txt
  wait $load
  jmap -histo:live "$stack" > /tmp/histo-live.txt
}
export -f histo
bench_stack /tmp/histo-stack.log histo
