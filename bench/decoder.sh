#!/usr/bin/env bash
# Codec benchmark: decodes/s per core for each built-in codec and for JavaScript codecs (2 KB ES5, 100 KB ES5,
# ES2015+). With BEFORE=<commit>, the same benchmark class also runs on that commit's codecs (a git worktree),
# alternating with this checkout RUNS times, and the report gives the median of the runs for both and their ratio.
# Rewrites docs/benchmarks/decoder.md (decoder-throughput.sh appends).
# Usage: [ROUNDS=5] [SECONDS_PER_ROUND=2] [BEFORE=756c1f8] [RUNS=3] bench/decoder.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
cp=$(bench_classpath decoder-service)
main=dev.iotpipeline.decoder.codec.CodecBenchmark
args=("${ROUNDS:-5}" "${SECONDS_PER_ROUND:-2}")
runs=${RUNS:-3}
work=$(mktemp -d)
before_classpath() {
  local tree=$work/before
  git worktree add -q "$tree" "$BEFORE"
  cp decoder-service/src/test/java/dev/iotpipeline/decoder/codec/CodecBenchmark.java \
    "$tree/decoder-service/src/test/java/dev/iotpipeline/decoder/codec/"
  mkdir -p "$tree/decoder-service/src/test/resources/codecs"
  cp -r decoder-service/src/test/resources/codecs/corpus "$tree/decoder-service/src/test/resources/codecs/"
  # Compiled in place, not installed: the local repository keeps this checkout's artifacts.
  (cd "$tree" && ./mvnw -B -q -o -pl decoder-service test-compile >&2 \
    && ./mvnw -B -q -o -pl decoder-service dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile=target/cp.txt >&2)
  echo "$tree/decoder-service/target/test-classes:$tree/decoder-service/target/classes:$(cat "$tree/decoder-service/target/cp.txt")"
}
if [[ -n "${BEFORE:-}" ]]; then
  before_cp=$(before_classpath)
  for ((r = 1; r <= runs; r++)); do
    java -cp "$cp" "$main" "${args[@]}" > "$work/after.$r"
    java -cp "$before_cp" "$main" "${args[@]}" > "$work/before.$r"
  done
  git worktree remove --force "$work/before"
else
  java -cp "$cp" "$main" "${args[@]}" > "$work/after.1"
fi
{
  echo "# Decoder codec benchmark"
  echo
  echo "Command: \`${BEFORE:+BEFORE=$BEFORE }bench/decoder.sh\` on this 2-core machine ($(java -version 2>&1 | head -1)); one"
  echo "thread, so the figures are per core. Nothing else was running; $(date -u +%Y-%m-%d). Each run takes the median"
  echo "of ${args[0]} rounds of ${args[1]} s after a 2 s warm-up."
  echo
  if [[ -n "${BEFORE:-}" ]]; then
    echo "This checkout against commit \`$BEFORE\` (the same benchmark class and codecs compiled there), $runs runs"
    echo "each, alternating; medians of the runs, and the ratio of the medians."
    echo
    java -cp "$cp" "$main" compare "$work"/after.* -- "$work"/before.*
  else
    cat "$work/after.1"
  fi
  echo
  echo "The JavaScript engine decision (Rhino in its sandbox against GraalJS, on the whole codec corpus) is in"
  echo "[js-engines.md](js-engines.md), from \`bench/js-engines.sh\`."
} > docs/benchmarks/decoder.md
cat docs/benchmarks/decoder.md
