# Shared by the bench scripts: JDK and k6 selection, and a throwaway embedded stack on ports 28080-28083
# (Kafka 29092, PostgreSQL 25433) that is stopped when the script exits. Source it from the repository root.
eval "$(./pipeline env)"
export IOT_INGEST_PORT=28080 IOT_DECODER_PORT=28081 IOT_RULES_PORT=28082 IOT_NOTIFY_PORT=28083
export IOT_KAFKA_PORT=29092 IOT_KAFKA_CONTROLLER_PORT=29093 IOT_POSTGRES_PORT=25433
export INGEST_URL=http://127.0.0.1:28080 RULES_URL=http://127.0.0.1:28082 NOTIFY_URL=http://127.0.0.1:28083
BENCH_STACK=""

stop_bench_stack() {
  if [ -n "$BENCH_STACK" ]; then
    kill -TERM "$BENCH_STACK" 2>/dev/null || true
    wait "$BENCH_STACK" 2>/dev/null || true
  fi
  BENCH_STACK=""
}
trap stop_bench_stack EXIT

# start_bench_stack LOG: starts the stack on fresh data (environment decides what runs) and waits for READY.
start_bench_stack() {
  export IOT_DATA_DIR; IOT_DATA_DIR=$(mktemp -d /tmp/iot-pipeline-bench.XXXXXX)
  ./pipeline run --no-build > "$1" 2>&1 &
  BENCH_STACK=$!
  until grep -q '^READY' "$1"; do kill -0 "$BENCH_STACK"; sleep 1; done
}

# bench_classpath MODULE: builds MODULE (and what it needs) and prints the classpath of its test classes, for
# the benchmark mains that live there.
bench_classpath() {
  ./mvnw -B -q -pl "$1" -am install -DskipTests >&2
  ./mvnw -B -q -pl "$1" dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench-classpath.txt >&2
  echo "$1/target/test-classes:$1/target/classes:$(cat "$1/target/bench-classpath.txt")"
}
