#!/usr/bin/env bash
# ad hoc: broker request counts, pipeline batched (MODE=pipeline) or the perf tools (MODE=perf)
set -euo pipefail
export HERE; HERE=$(cd "$(dirname "$0")" && pwd)
export OUT=${OUT:-/tmp/breq}
mkdir -p "$OUT"
cd "$HERE/../../../../.."
source bench/lib.sh
export POSTLOAD=$PWD/bench/postload/postload MODE=${MODE:-pipeline}
export CP="$HOME/.m2/repository/org/apache/kafka/kafka-tools/4.1.2/kafka-tools-4.1.2.jar:$(cat local-stack/target/run-classpath.txt)"
m() {
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  bs=127.0.0.1:$IOT_KAFKA_PORT
  snap() { java "$HERE/BrokerRequests.java" "$broker" > $OUT/$MODE-$1.txt; cat /proc/$broker/stat | awk '{print $14+$15}' > $OUT/$MODE-$1.cpu; }
  if [ "$MODE" = pipeline ]; then
    "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 150 -batch 100 -devices 1000 -conns 256 -duration 60s -report $OUT/w.json > /dev/null 2>&1
    "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate 150 -batch 100 -devices 1000 -conns 256 -duration 45s -report $OUT/m.json > /dev/null 2>&1 &
    sleep 10; snap 0; sleep 30; snap 1; wait
  else
    java -cp "$CP" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bs" --create --topic perf --partitions 6 --replication-factor 1 > /dev/null
    for i in 1 2 3 4; do java -Xmx512m -XX:+UseParallelGC -cp "$CP" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$bs" --topic perf --group g$i --messages 1050000 --timeout 60000 > /dev/null 2>&1 & done
    sleep 3
    java -Xmx512m -XX:+UseParallelGC -cp "$CP" org.apache.kafka.tools.ProducerPerformance --topic perf --num-records 1050000 --record-size 600 --throughput 15000 --producer-props "bootstrap.servers=$bs" acks=all enable.idempotence=true linger.ms=5 batch.size=65536 > /dev/null 2>&1 &
    sleep 25; snap 0; sleep 30; snap 1; wait
  fi
}
export -f m
bench_stack $OUT/$MODE-stack.log m
