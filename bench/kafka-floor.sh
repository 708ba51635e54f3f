#!/usr/bin/env bash
# The Kafka legs' floor on this machine (issue 26): CPU per record of Kafka's own producer and consumer perf tools
# (org.apache.kafka.tools.ProducerPerformance, ConsumerPerformance from kafka-tools) and of the broker serving them,
# at RATE records/s of SIZE bytes, with none of the pipeline's code in the way. Each uplink crosses two produce legs
# (ingest -> uplinks, decoder -> data-units) and four consume legs (decoder, rules, the live feed, the history
# writer), so these figures, against the 50 µs per uplink that 40,000 uplinks/s on two cores allows, say how much
# of that budget Kafka alone takes at its best batching.
# One fresh `./pipeline run` provides the broker (the services sit idle; the broker's idle CPU over a window before
# the load is subtracted). On a topic of PARTITIONS partitions of its own, per LINGERS entry: a producer alone at
# RATE for WARM + WINDOW, then the same with CONSUMERS consumers (one group each, like the pipeline's) reading along;
# CPU is read from /proc over the WINDOW after WARM, per process, ÷ records produced in it.
#   bench/kafka-floor.sh                         RATE=40000 SIZE=600 LINGERS="0 5" CONSUMERS=4
#   RATE=15000 OUT=/tmp/f REPORT=/tmp/f.md bench/kafka-floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
export RATE=${RATE:-40000} SIZE=${SIZE:-600} PARTITIONS=${PARTITIONS:-6} LINGERS=${LINGERS:-"0 5"}
export CONSUMERS=${CONSUMERS:-4} WARM=${WARM:-20} WINDOW=${WINDOW:-30}
export OUT=${OUT:-docs/benchmarks/raw/kafka-floor} REPORT=${REPORT:-docs/benchmarks/kafka-floor.md}
# The perf tools of the Kafka version the stack runs (kafka-tools is not on its classpath: fetched once).
KAFKA_VERSION=$(tr ':' '\n' < local-stack/target/run-classpath.txt | sed -n 's:.*/kafka-clients-\(.*\)\.jar:\1:p' | head -1)
TOOLS=$HOME/.m2/repository/org/apache/kafka/kafka-tools/$KAFKA_VERSION/kafka-tools-$KAFKA_VERSION.jar
[ -f "$TOOLS" ] || ./mvnw -B -q dependency:get -Dartifact="org.apache.kafka:kafka-tools:$KAFKA_VERSION" >&2
export CP="$TOOLS:$(cat local-stack/target/run-classpath.txt)"
rm -rf "$OUT"
mkdir -p "$OUT"

# Runs under the stack (bench_stack).
measure() {
  local broker topic bootstrap=127.0.0.1:$IOT_KAFKA_PORT records pids p i linger
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  cpu() { awk '{ s = $0; sub(/^.*\) /, "", s); split(s, f, " "); print f[12] + f[13] }' "/proc/$1/stat"; }
  records=$(( RATE * (WARM + WINDOW + 5) ))
  b0=$(cpu "$broker"); sleep 10; b1=$(cpu "$broker")
  echo "idle $(( b1 - b0 )) 10" > "$OUT/broker-idle.txt"
  for linger in $LINGERS; do
    for consumers in 0 "$CONSUMERS"; do
      topic=floor-l$linger-c$consumers
      java -cp "$CP" org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create --topic "$topic" \
        --partitions "$PARTITIONS" --replication-factor 1 > /dev/null
      pids=()
      for i in $(seq 1 "$consumers"); do
        java -Xmx512m -XX:+UseParallelGC -cp "$CP" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$bootstrap" \
          --topic "$topic" --group "$topic-g$i" --messages "$records" --timeout 60000 > "$OUT/$topic-consumer-$i.log" 2>&1 &
        pids+=("$!")
      done
      sleep 3
      java -Xmx512m -XX:+UseParallelGC -cp "$CP" org.apache.kafka.tools.ProducerPerformance --topic "$topic" \
        --num-records "$records" --record-size "$SIZE" --throughput "$RATE" \
        --producer-props "bootstrap.servers=$bootstrap" acks=all enable.idempotence=true "linger.ms=$linger" \
        batch.size=65536 > "$OUT/$topic-producer.log" 2>&1 &
      p=$!
      sleep "$WARM"
      { echo "broker $(cpu "$broker")"; echo "producer $(cpu "$p")"
        for i in $(seq 1 "$consumers"); do echo "consumer-$i $(cpu "${pids[$((i - 1))]}")"; done; } > "$OUT/$topic.before"
      sleep "$WINDOW"
      { echo "broker $(cpu "$broker")"; echo "producer $(cpu "$p")"
        for i in $(seq 1 "$consumers"); do echo "consumer-$i $(cpu "${pids[$((i - 1))]}")"; done; } > "$OUT/$topic.after"
      wait "$p"
      for pid in "${pids[@]}"; do wait "$pid" || true; done
      echo "$topic done"
    done
  done
}
export -f measure
bench_stack "$OUT/stack.log" measure

hz=$(getconf CLK_TCK)
{
  echo "# The Kafka legs' floor: CPU per record of Kafka's own perf tools and the broker"
  echo
  echo "- **Command:** \`RATE=$RATE SIZE=$SIZE PARTITIONS=$PARTITIONS LINGERS=\"$LINGERS\" CONSUMERS=$CONSUMERS WARM=$WARM WINDOW=$WINDOW bench/kafka-floor.sh\`"
  echo "- **Machine:** $(nproc) cores; $(java -version 2>&1 | head -1); Kafka $KAFKA_VERSION (kafka-tools' ProducerPerformance and ConsumerPerformance, each its own JVM, -Xmx512m, parallel GC)"
  echo "- **Broker:** the embedded one of a fresh \`./pipeline run\` (its services idle; the broker's idle CPU, $(awk '{printf "%.3f", $2 / '"$hz"' / $3}' "$OUT/broker-idle.txt") s per s, is subtracted)"
  echo "- **Load:** one producer at $RATE records/s of $SIZE bytes (acks=all, idempotent, batch.size 64 KB, linger as in the row) into a topic of its own with $PARTITIONS partitions; with consumers, each in a group of its own, reading from the start as the records arrive (fetch defaults: fetch.min.bytes 1)"
  echo "- **Figures:** CPU (user + system, /proc/PID/stat) over the $WINDOW s after the first $WARM s, ÷ records produced in that window ($RATE/s × $WINDOW s)"
  echo
  echo "| linger.ms | consumers | producer µs/record | broker µs/record | each consumer µs/record | all µs/record |"
  echo "|---|---|---|---|---|---|"
  for linger in $LINGERS; do
    for consumers in 0 "$CONSUMERS"; do
      topic=floor-l$linger-c$consumers
      awk -v hz="$hz" -v n=$(( RATE * WINDOW )) -v w="$WINDOW" -v linger="$linger" -v c="$consumers" '
        FILENAME ~ /idle/ { idle = $2 / $3; next }
        FILENAME ~ /before$/ { before[$1] = $2; next }
        { d = $2 - before[$1]; if ($1 == "broker") d -= idle * w
          us = d / hz * 1e6 / n; total += us
          if ($1 == "broker") b = us; else if ($1 == "producer") p = us; else { cs = cs (cs == "" ? "" : ", ") sprintf("%.1f", us) } }
        END { printf "| %s | %s | %.1f | %.1f | %s | %.1f |\n", linger, c, p, b, (cs == "" ? "-" : cs), total }
      ' "$OUT/broker-idle.txt" "$OUT/$topic.before" "$OUT/$topic.after"
    done
  done
  echo
  echo "Producer summaries (the perf tool's last line):"
  echo
  for f in "$OUT"/*-producer.log; do echo "- $(basename "$f" -producer.log): $(grep 'records sent' "$f" | tail -1)"; done
} > "$REPORT"
echo "report: $REPORT"
