#!/usr/bin/env bash
# Rules benchmark (issue 5): evaluations/s with 1, 100 and 1,000 rules over 10,000 devices through the real
# engine, one thread. Rewrites docs/benchmarks/rules.md (run bench/rules-latency.sh after it: it appends).
# Usage: [SECONDS_PER_ROUND=5] bench/rules.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
cp=$(bench_classpath rules-service)
{
  echo "# Rules benchmark"
  echo
  echo "Command: \`bench/rules.sh\` on this 2-core machine ($(java -version 2>&1 | head -1)). The alarm"
  echo "processor's work per data unit (select the rules whose filter matches, evaluate each compiled"
  echo "condition) on one thread over 10,000 devices, without Kafka; every rule's filter matches every data"
  echo "unit, so each data unit is evaluated against every rule."
  echo
  java -cp "$cp" dev.iotpipeline.rules.alarm.RuleBenchmark "${SECONDS_PER_ROUND:-5}" 2>/dev/null
} > docs/benchmarks/rules.md
cat docs/benchmarks/rules.md
