#!/usr/bin/env bash
# Codec benchmark (issue 4): decodes/s per core for each built-in codec and the JavaScript EM300-TH codec.
# Rewrites docs/benchmarks/decoder.md (js-engines.sh and decoder-throughput.sh append to it).
# Usage: [ROUNDS=5] [SECONDS_PER_ROUND=2] bench/decoder.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
cp=$(bench_classpath decoder-service)
{
  echo "# Decoder codec benchmark"
  echo
  echo "Command: \`bench/decoder.sh\` on this 2-core machine ($(java -version 2>&1 | head -1)); one thread, so the"
  echo "figures are per core. Nothing else was running."
  echo
  java -cp "$cp" dev.iotpipeline.decoder.codec.CodecBenchmark "${ROUNDS:-5}" "${SECONDS_PER_ROUND:-2}"
} > docs/benchmarks/decoder.md
cat docs/benchmarks/decoder.md
