#!/usr/bin/env bash
# The cold and warm seed shape in-JVM (bench/latency.sh, one fresh stack a run) with the producers compressing with
# lz4 (L, the default), snappy (S) and not at all (N), set through SPRING_KAFKA_PRODUCER_COMPRESSIONTYPE (every
# service's spring-kafka producer; the rules' Streams producer keeps lz4), L S N in each round; the stack JVM logs its
# collections (the default options plus -Xlog:gc) into $O/<arm><round>-gc.log.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/compression-lat}
mkdir -p "$o"
for i in ${ROUNDS:-1 2}; do
  for arm in ${ARMS:-L S N}; do
    case $arm in L) c=lz4 ;; S) c=snappy ;; N) c=none ;; esac
    SPRING_KAFKA_PRODUCER_COMPRESSIONTYPE=$c RUNS=1 OUT=$o/$arm$i REPORT=$o/latency-$arm$i.md \
      STACK_JAVA_OPTS="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -Xlog:gc:file=$o/$arm$i-gc.log:uptime" \
      bench/latency.sh > "$o/$arm$i.log" 2>&1
  done
done
