#!/usr/bin/env bash
# The cold and warm seed shape in-JVM (bench/latency.sh, one fresh stack a run) with the JIT's tier thresholds at
# their default (D) and scaled by -XX:CompileThresholdScaling (Q = 0.25, H = 0.5) on the stack JVM, ARMS in each
# round; the scaled arms keep every other default option. Reports: $O/latency-<arm><round>.md.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/cts-lat}
mkdir -p "$o"
base="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m"
for i in ${ROUNDS:-1 2 3}; do
  for arm in ${ARMS:-D Q}; do
    case $arm in D) extra="" ;; Q) extra=" -XX:CompileThresholdScaling=0.25" ;; H) extra=" -XX:CompileThresholdScaling=0.5" ;; esac
    RUNS=1 OUT=$o/$arm$i REPORT=$o/latency-$arm$i.md STACK_JAVA_OPTS="$base$extra" \
      bench/latency.sh > "$o/$arm$i.log" 2>&1
  done
done
