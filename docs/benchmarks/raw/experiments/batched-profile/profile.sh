#!/usr/bin/env bash
# A JFR CPU-time profile of the stack JVM under batches of 100 at RATE requests/s (default 200: 20,000 uplinks/s, a
# rate every part keeps up with): a fresh bench stack, a 60 s warm-up, then 20 s recorded; the breakdown by
# component, thread and method (bench/JfrFolded.java) into $PO/bp.txt. From the repository root:
#   PO=/tmp/prof docs/benchmarks/raw/experiments/batched-profile/profile.sh
set -euo pipefail
source bench/lib.sh
export POSTLOAD=$PWD/bench/postload/postload PO=${PO:-/tmp/prof} RATE=${RATE:-200}
mkdir -p "$PO"
(cd bench/postload && go build -o postload .)
measure() {
  local stack
  stack=$(listener_pid "$IOT_INGEST_PORT")
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$RATE" -batch 100 -devices 1000 -conns 256 \
    -duration 60s -report "$PO/warm.json" > "$PO/warm.log" 2>&1
  jcmd "$stack" JFR.start name=p settings=profile jdk.CPUTimeSample#enabled=true filename="$PO/stack.jfr" > /dev/null
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$RATE" -batch 100 -devices 1000 -conns 256 \
    -duration 20s -report "$PO/m.json" > "$PO/m.log" 2>&1
  jcmd "$stack" JFR.stop name=p > /dev/null
}
# The launcher's stack JVM options (STACK_JAVA_OPTS in ./pipeline), plus a deeper stack for JFR.
IOT_JAVA_OPTS="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:FlightRecorderOptions:stackdepth=256" bench_stack "$PO/stack.log" measure
java bench/JfrFolded.java --events jdk.CPUTimeSample --by-package "$PO/stack.jfr" > "$PO/bp.txt"
echo "breakdown: $PO/bp.txt"
