#!/usr/bin/env bash
# Codec benchmark (issue 4): decodes/s per core for each built-in codec and the JavaScript EM300-TH codec.
# Writes docs/benchmarks/decoder.md. Usage: [ROUNDS=5] [SECONDS_PER_ROUND=2] bench/decoder.sh
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./pipeline env)"
./mvnw -B -q -pl pipeline-events,decoder-service -am install -DskipTests
./mvnw -B -q -pl decoder-service dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt
cp=decoder-service/target/test-classes:decoder-service/target/classes:$(cat decoder-service/target/bench-classpath.txt)
{
  echo "# Decoder codec benchmark"
  echo
  echo "Command: \`bench/decoder.sh\` on this 2-core machine ($(java -version 2>&1 | head -1)); one thread, so the"
  echo "figures are per core. Nothing else was running."
  echo
  java -cp "$cp" dev.iotpipeline.decoder.codec.CodecBenchmark "${ROUNDS:-5}" "${SECONDS_PER_ROUND:-2}"
} > docs/benchmarks/decoder.md
cat docs/benchmarks/decoder.md
