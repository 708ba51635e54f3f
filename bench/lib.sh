# Shared by the bench scripts: JDK and k6 selection, and throwaway embedded stacks (bench_stack) on ports
# 28080-28083 (Kafka 29092, PostgreSQL 25433; each overridable with IOT_*_PORT). Source it from the repository root.
eval "$(./pipeline env)"
export IOT_INGEST_PORT=${IOT_INGEST_PORT:-28080} IOT_DECODER_PORT=${IOT_DECODER_PORT:-28081}
export IOT_RULES_PORT=${IOT_RULES_PORT:-28082} IOT_NOTIFY_PORT=${IOT_NOTIFY_PORT:-28083}
export IOT_KAFKA_PORT=${IOT_KAFKA_PORT:-29092} IOT_KAFKA_CONTROLLER_PORT=${IOT_KAFKA_CONTROLLER_PORT:-29093}
export IOT_POSTGRES_PORT=${IOT_POSTGRES_PORT:-25433}
BENCH_STACK=""
# A script that exits (or is interrupted) while a stack runs stops it: the launcher then stops its command too.
trap '[ -z "$BENCH_STACK" ] || kill -TERM "$BENCH_STACK" 2>/dev/null || true' EXIT

# bench_stack LOG COMMAND [ARGS...]: runs COMMAND, a program or a function of the calling script, against a fresh
# throwaway stack on fresh data (IOT_DATA_DIR, kept afterwards; the environment decides what runs). The Java
# launcher (./pipeline run --then) starts the stack with its output in LOG, waits for it (at most
# IOT_START_TIMEOUT s, 300), runs COMMAND with INGEST_URL, DECODER_URL, RULES_URL, NOTIFY_URL, WS_URL and the
# credentials in its environment, stops the stack and returns COMMAND's exit code. A function runs in a bash of its
# own (set -euo pipefail): what it reads from the script must be exported; the function itself is exported here.
bench_stack() {
  local log=$1 rc=0
  shift
  if [ "$(type -t "$1")" = function ]; then
    export -f "${1?}"
    set -- bash -euo pipefail -c '"$@"' bench-stack "$@"
  fi
  export IOT_DATA_DIR; IOT_DATA_DIR=$(mktemp -d /tmp/iot-pipeline-bench.XXXXXX)
  ./pipeline run --no-build --log "$log" --then "$@" &
  BENCH_STACK=$!
  wait "$BENCH_STACK" || rc=$?
  BENCH_STACK=""
  return "$rc"
}

# bench_classpath MODULE: builds MODULE (and what it needs) and prints the classpath of its test classes, for
# the benchmark mains that live there.
bench_classpath() {
  ./mvnw -B -q -pl "$1" -am install -DskipTests >&2
  ./mvnw -B -q -pl "$1" dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench-classpath.txt >&2
  echo "$1/target/test-classes:$1/target/classes:$(cat "$1/target/bench-classpath.txt")"
}
