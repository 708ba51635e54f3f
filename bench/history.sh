#!/usr/bin/env bash
# The history benchmark of issue 15: generates ROWS data units in a durable embedded PostgreSQL of its own (daily
# partitions, as notify stores them), then times notify's HistoryStore queries, the store writer while queries run,
# bytes per data unit and the retention of one day. Writes Markdown to OUT; docs/benchmarks/history.md sums up
# the runs of 10 M and 100 M rows.
# Usage: [ROWS=10000000] [DAYS=ROWS/1000000] [SAMPLES=100] [WRITER_SECONDS=30] [HISTORY_BENCH_DIR=/tmp/iot-history-bench]
#        [OUT=docs/benchmarks/raw/history-ROWS.md] [KEEP=1: keep the data directory] bench/history.sh
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./pipeline env)"
export ROWS=${ROWS:-10000000} HISTORY_BENCH_DIR=${HISTORY_BENCH_DIR:-/tmp/iot-history-bench}
out=${OUT:-docs/benchmarks/raw/history-$ROWS.md}
# Compiled in the reactor (offline), so the benchmark runs the working tree's notify-service, not an installed jar.
modules=pipeline-events,pipeline-kafka,notify-service,local-stack
./mvnw -B -q -o -pl "$modules" test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt >&2
# A copy of the compiled classes, so a rebuild of the working tree during a long run cannot change the code measured.
snapshot=$(mktemp -d /tmp/iot-history-bench-classes.XXXXXX)
for module in ${modules//,/ }; do
  mkdir -p "$snapshot/$module" && cp -r "$module/target/classes" "$snapshot/$module/classes"
done
cp -r local-stack/target/test-classes "$snapshot/local-stack/test-classes"
cp="$snapshot/local-stack/test-classes:$snapshot/local-stack/classes:$(cat local-stack/target/bench-classpath.txt)"
for module in ${modules//,/ }; do cp=${cp//$PWD\/$module\/target\/classes/$snapshot\/$module\/classes}; done
revision="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- notify-service/src/main local-stack/src || echo ' with uncommitted changes')"
report=$(mktemp)
command="ROWS=$ROWS${DAYS:+ DAYS=$DAYS}${SAMPLES:+ SAMPLES=$SAMPLES}${WRITER_SECONDS:+ WRITER_SECONDS=$WRITER_SECONDS} bench/history.sh"
log="${HISTORY_BENCH_DIR%/}-$ROWS.log"
: > "$log"
HISTORY_BENCH_REPORT=$report java -Xmx2g -cp "$cp" dev.iotpipeline.localstack.HistoryBenchmark > "$log" 2>&1 &
bench=$!
trap 'kill -TERM $bench 2>/dev/null || true; rm -rf "$snapshot"' EXIT INT TERM
tail -n +1 -f "$log" --pid=$bench | grep --line-buffered '^\[history-bench' >&2 || true
wait $bench || { tail -40 "$log" >&2; exit 1; }
trap - EXIT INT TERM
rm -rf "$snapshot"
{
  echo "# History benchmark ($(echo "$ROWS" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') data units)"
  echo
  echo "Command: \`$command\` on this machine: 2 cores shared with other jobs ($(nproc) CPUs,"
  echo "$(free -g | awk '/Mem:/ {print $2}') GB RAM), $(java -version 2>&1 | head -1); $(date -u +%Y-%m-%dT%H:%MZ). The load generator"
  echo "(the benchmark's JVM: generation driver, query threads, writer) runs on the same cores as PostgreSQL."
  echo "Code measured: notify-service and local-stack at $revision."
  echo
  cat "$report"
} > "$out"
rm -f "$report"
[ -n "${KEEP:-}" ] || rm -rf "$HISTORY_BENCH_DIR/pg-$ROWS"
cat "$out"
