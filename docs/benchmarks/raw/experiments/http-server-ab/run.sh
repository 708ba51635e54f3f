#!/usr/bin/env bash
# Tomcat on virtual threads against Reactor Netty for ingest's device path, without the pipeline (HttpFloor.java):
# one fresh `./pipeline run` provides the broker (its services idle); per entry of ORDER, HttpFloor starts in that
# mode, takes WARMUP s of single POSTs at RATE/s from bench/postload (256 connections, 1,000 devices), then WINDOW s
# more while /proc counts its CPU and the broker's (the broker's idle CPU, measured first, subtracted).
#   ORDER="tomcat netty tomcat netty" RATE=5000 WARMUP=40 WINDOW=30 OUT=/tmp/httpab docs/benchmarks/raw/experiments/http-server-ab/run.sh
set -euo pipefail
export HERE; HERE=$(cd "$(dirname "$0")" && pwd)
export OUT=${OUT:-/tmp/httpab} ORDER=${ORDER:-"tomcat netty tomcat netty"} RATE=${RATE:-5000}
export WARMUP=${WARMUP:-40} WINDOW=${WINDOW:-30}
mkdir -p "$OUT"
cd "$HERE/../../../../.."
source bench/lib.sh
(cd bench/postload && go build -o postload .)
./mvnw -B -q -f "$HERE/pom.xml" dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" >&2
export POSTLOAD=$PWD/bench/postload/postload
m() {
  local broker bs=127.0.0.1:$IOT_KAFKA_PORT n=0 mode pid load
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  cpu() { awk '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); print f[12] + f[13] }' "/proc/$1/stat"; }
  b0=$(cpu "$broker"); sleep 10; b1=$(cpu "$broker"); echo "broker-idle $((b1 - b0)) 10" > "$OUT/broker-idle.txt"
  for mode in $ORDER; do
    n=$((n + 1))
    java -Xms1g -Xmx2g -XX:+UseParallelGC -cp "$(cat "$OUT/cp.txt")" "$HERE/HttpFloor.java" "$mode" 38080 "$bs" "http-ab-$n" \
      > "$OUT/$n-$mode.log" 2>&1 &
    pid=$!
    until grep -q READY "$OUT/$n-$mode.log"; do sleep 0.5; done
    "$POSTLOAD" -url http://127.0.0.1:38080 -channel demo -rate "$RATE" -devices 1000 -conns 256 -duration "${WARMUP}s" \
      -report "$OUT/$n-$mode-warmup.json" > /dev/null 2>&1
    "$POSTLOAD" -url http://127.0.0.1:38080 -channel demo -rate "$RATE" -devices 1000 -conns 256 -duration "${WINDOW}s" \
      -report "$OUT/$n-$mode.json" > /dev/null 2>&1 &
    load=$!
    sleep 1
    echo "$(cpu "$pid") $(cpu "$broker")" > "$OUT/$n-$mode.before"
    sleep $((WINDOW - 2))
    echo "$(cpu "$pid") $(cpu "$broker")" > "$OUT/$n-$mode.after"
    wait "$load"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo "$n $mode done"
  done
}
export -f m
bench_stack "$OUT/stack.log" m
hz=$(getconf CLK_TCK)
read -r _ idle secs < "$OUT/broker-idle.txt"
echo "| run | server | requests/s | p50 / p99 ms | server µs/request | broker µs/request (idle subtracted) |"
echo "|---|---|---|---|---|---|"
n=0
for mode in $ORDER; do
  n=$((n + 1))
  read -r s0 k0 < "$OUT/$n-$mode.before"; read -r s1 k1 < "$OUT/$n-$mode.after"
  python3 - "$OUT/$n-$mode.json" "$n" "$mode" "$s0" "$s1" "$k0" "$k1" "$hz" "$idle" "$secs" "$WINDOW" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); n, mode = sys.argv[2], sys.argv[3]
s0, s1, k0, k1, hz, idle, secs, window = map(float, sys.argv[4:])
rate = r["acceptedUplinksPerSecond"]; reqs = rate * (window - 2)
srv = (s1 - s0) / hz / reqs * 1e6
brk = ((k1 - k0) / hz - idle / hz / secs * (window - 2)) / reqs * 1e6
print(f"| {n} | {mode} | {rate:,.0f} | {r['latencyP50Ms']:.1f} / {r['latencyP99Ms']:.1f} | {srv:.1f} | {brk:.1f} |")
PY
done
