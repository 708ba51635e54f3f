#!/usr/bin/env bash
# A/B of C2's inlining budget below the shipped one: A = the stack as shipped (STACK_JAVA_OPTS in ./pipeline, with
# -XX:InlineSmallCode=1000), C = the same options with InlineSmallCode=$ISC, through IOT_JAVA_OPTS (the command
# line, so it overrides; ChildJvm passes it on to the broker and the service processes). One build and one AOT cache
# per mode, used by both arms. KIND=latency: `RUNS=1 bench/latency.sh` (BENCH_PROCESSES passes through);
# KIND=throughput: `RUNS=1 bench/throughput.sh` at rates slow cores sustain.
# Usage: OUT=/tmp/isc500 KIND=latency ORDER="C1 A1 A2 C2" bash ab.sh
set -u
cd "$(dirname "$0")/../../../../.."
OUT=${OUT:-/tmp/isc500}
ISC=${ISC:-500}
KIND=${KIND:-latency}
shipped=$(sed -n 's/^STACK_JAVA_OPTS="\(.*\)"$/\1/p' pipeline)
candidate=${shipped/-XX:InlineSmallCode=1000/-XX:InlineSmallCode=$ISC}
[ "$candidate" != "$shipped" ] || { echo "STACK_JAVA_OPTS has no -XX:InlineSmallCode=1000 to replace" >&2; exit 2; }
mkdir -p "$OUT"
for r in ${ORDER:-C1 A1 A2 C2 C3 A3}; do
  case $r in A*) opts=$shipped ;; C*) opts=$candidate ;; esac
  run_dir=$OUT/$r
  if [ "$KIND" = throughput ]; then
    IOT_JAVA_OPTS="$opts" RUNS=1 RATE=${RATE:-2500} BATCH_RATE=${BATCH_RATE:-250} OUT="$run_dir" \
      REPORT="$run_dir/$r.md" bench/throughput.sh > "$OUT/$r.log" 2>&1
  else
    IOT_JAVA_OPTS="$opts" RUNS=1 OUT="$run_dir" REPORT="$run_dir/$r.md" bench/latency.sh > "$OUT/$r.log" 2>&1
  fi
  echo "$r done $(date +%T) ($opts)"
  sleep 5
done
