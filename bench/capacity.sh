#!/usr/bin/env bash
# Per-stage costs for the capacity model (issue 14): CPU µs per uplink of each service, the broker and PostgreSQL,
# bytes per uplink per topic and per row in PostgreSQL, on the stack as processes. Prints Markdown to paste into
# docs/scaling.md's "Measured" section. Usage: [UPLINKS=20000] [CONCURRENCY=32] [RUNS=3] bench/capacity.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
# The probe runs from local-stack/ (ProcessStack finds the repository as its parent), so the paths are absolute.
cp=$(bench_classpath local-stack | sed "s#local-stack/target#$PWD/local-stack/target#g")
out=docs/benchmarks/capacity.md
{
  echo "# Per-stage costs"
  echo
  echo "Command: \`bench/capacity.sh\` on this 2-core machine ($(java -version 2>&1 | head -1)); $(date -u +%Y-%m-%d)."
  echo "The four services, the broker and PostgreSQL run as processes of their own (\`ProcessStack\`), durable, one"
  echo "instance each, 3 partitions; the load generator runs in the same JVM as the probe, on the same cores. CPU"
  echo "time is each process's own counter (PostgreSQL: with its backends), read before and after the measured uplinks."
  echo
  (cd local-stack && java -cp "$cp" dev.iotpipeline.localstack.CapacityProbe "${UPLINKS:-20000}" "${CONCURRENCY:-32}" "${RUNS:-3}" 2>/dev/null \
    | grep -v '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T')
} > "$out"
cat "$out"
