#!/usr/bin/env bash
# JavaScript engine comparison for codecs (issue 4): Rhino vs GraalJS on the same TTN-style script.
# Appends to docs/benchmarks/decoder.md. Usage: [ROUNDS=5] bench/js-engines.sh
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(./pipeline env)"
./mvnw -B -q -f bench/js-engines/pom.xml dependency:copy-dependencies -DoutputDirectory=target/lib
{
  echo
  echo "## JavaScript engine comparison"
  echo
  echo "Command: \`bench/js-engines.sh\`; the TTN-style EM300-TH codec in"
  echo "\`decoder-service/src/test/resources/scripts/em300th-ttn-style.js\`, one thread."
  echo
  java -cp 'bench/js-engines/target/lib/*' bench/js-engines/EngineBench.java \
    decoder-service/src/test/resources/scripts/em300th-ttn-style.js "${ROUNDS:-5}" 2>/dev/null
} >> docs/benchmarks/decoder.md
tail -8 docs/benchmarks/decoder.md
