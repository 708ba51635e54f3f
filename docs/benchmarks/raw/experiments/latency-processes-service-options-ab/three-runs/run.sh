#!/bin/bash
cd /work/main
set -x
IOT_SERVICE_JAVA_OPTS="-Xmx512m -XX:+UseSerialGC" ./pipeline aot --processes > /tmp/svcab3/aot-a.log 2>&1
IOT_SERVICE_JAVA_OPTS="-Xmx512m -XX:+UseSerialGC" BENCH_PROCESSES=1 RUNS=3 OUT=/tmp/svcab3/a REPORT=/tmp/svcab3/a.md bench/latency.sh > /tmp/svcab3/a.log 2>&1
./pipeline aot --processes > /tmp/svcab3/aot-b.log 2>&1
BENCH_PROCESSES=1 RUNS=3 OUT=/tmp/svcab3/b REPORT=/tmp/svcab3/b.md bench/latency.sh > /tmp/svcab3/b.log 2>&1
echo done
