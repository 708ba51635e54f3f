#!/usr/bin/env bash
# Fuzz run (issue: hostile input never gets a 500): the jqwik property tests (*PropertiesTest) of every service,
# with far more tries than the normal test run, one Maven run per module. Rewrites docs/benchmarks/fuzz.md: per
# property the tries, seed, time, failures and outcome mix, and the total; the jqwik reports go to
# docs/benchmarks/raw/fuzz/. Exits non-zero when a property failed (the shrunk sample is in the raw report).
# Usage: [TRIES_INGEST=30000] [TRIES_DECODER=60000] [TRIES_RULES=150000] [TRIES_NOTIFY=150000] bench/fuzz.sh
# The normal test run uses jqwik.tries.default from each module's junit-platform.properties (300).
set -euo pipefail
cd "$(dirname "$0")/.."

eval "$(./pipeline env --jdk)"

runs=("ingest-service=${TRIES_INGEST:-30000}" "decoder-service=${TRIES_DECODER:-60000}"
      "rules-service=${TRIES_RULES:-150000}" "notify-service=${TRIES_NOTIFY:-150000}")
modules=$(printf '%s\n' "${runs[@]}" | cut -d= -f1 | paste -sd,)
raw=docs/benchmarks/raw/fuzz
rm -rf "$raw" && mkdir -p "$raw"

./mvnw -B -q install -DskipTests -pl "$modules" -am
started=$(date +%s)
status=0
for run in "${runs[@]}"; do
  module=${run%%=*} tries=${run#*=}
  echo "== $module: $tries tries per property" >&2
  rm -rf "$module/target/jqwik-database" "$module/target/surefire-reports"
  ./mvnw -B test -pl "$module" -Dtest='*PropertiesTest' -Dsurefire.failIfNoSpecifiedTests=false \
    -Djqwik.tries.default="$tries" > "$raw/$module-maven.log" 2>&1 || status=1
  mkdir -p "$raw/$module"
  cp "$module"/target/surefire-reports/*PropertiesTest-output.txt "$module"/target/surefire-reports/TEST-*PropertiesTest.xml \
    "$raw/$module/" 2>/dev/null || true
  grep -E 'Tests run:.*Fail' "$raw/$module-maven.log" | tail -1 >&2 || true
done
elapsed=$(( $(date +%s) - started ))

report=docs/benchmarks/fuzz.md
{
  echo "# Fuzz run: property-based tests with many tries"
  echo
  tries=$(printf '%s, ' "${runs[@]//=/ }")
  echo "Command: \`bench/fuzz.sh\` (tries per property: ${tries%, }),"
  echo "$(date -u +%Y-%m-%d), on this machine: 2 shared cores, $(java -version 2>&1 | head -1). Wall time $((elapsed / 60)) min"
  echo "$((elapsed % 60)) s for the four Maven runs (build excluded)."
  echo
  echo "Every property is a \`*PropertiesTest\` that the normal \`./mvnw test\` runs with 300 tries"
  echo "(\`jqwik.tries.default\` in each module's \`src/test/resources/junit-platform.properties\`); this run sets"
  echo "\`-Djqwik.tries.default\` instead. The invariant of each: every generated input ends as a value or the"
  echo "class's own rejection (the ErrorResponseException of a 4xx problem, CodecException, InvalidExpressionException,"
  echo "an error answer), never another exception, within 10 s. Outcomes are jqwik's statistics of how each input"
  echo "ended; a seed reproduces a property's run with \`@Property(seed = \"...\")\`. Raw jqwik reports:"
  echo "\`docs/benchmarks/raw/fuzz/\`."
  echo
  ./pipeline report fuzz "$raw" "${runs[@]}" || status=1
} > "$report"
rm -f "$raw"/*/TEST-*.xml
[ "$status" -ne 0 ] || rm -f "$raw"/*-maven.log
cat "$report"
exit $status
