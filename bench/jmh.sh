#!/usr/bin/env bash
# JMH microbenchmarks of the per-record hot paths (the *Jmh classes in each service's test sources): ingest's
# request parsing and validation, the decoder's decode and data-unit serde, the rules engine's evaluation of one
# data unit, notify's live fan-out and history batch preparation. One thread, no Kafka, no stack. The decoder's
# CodecJmh (codecs alone), the rules engine's RuleJmh (1 to 1,000 rules) and ingest's DeviceRegistryJmh (a million
# devices) have reports of their own and are left out here: bench/decoder.sh, bench/rules.sh and bench/registry.sh
# run them.
# Writes JMH's JSON to docs/benchmarks/raw/jmh-<module>.json and the tables to docs/benchmarks/jmh.md.
# Usage: [JMH_OPTS='-f 1 -wi 3 -w 2s -i 5 -r 2s'] [JMH_MODULES='ingest decoder rules notify'] [JMH_NOTE=text] bench/jmh.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
read -r -a opts <<< "${JMH_OPTS:--f 1 -wi 3 -w 2s -i 5 -r 2s}"
read -r -a modules <<< "${JMH_MODULES:-ingest decoder rules notify}"
reactor=pipeline-events,pipeline-kafka,pipeline-web
for m in "${modules[@]}"; do reactor+=",$m-service"; done
# Compiled in the reactor, never installed: the local repository keeps the artifacts other checkouts built, and
# the classpaths name the reactor modules' target/classes (and pipeline-events' target/test-classes).
./mvnw -B -q -pl "$reactor" test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/jmh-cp.txt >&2
mkdir -p docs/benchmarks/raw
load_start=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
results=()
for m in "${modules[@]}"; do
  dir=$m-service
  json=docs/benchmarks/raw/jmh-$m.json
  echo "== $dir" >&2
  java -cp "$dir/target/test-classes:$dir/target/classes:$(cat "$dir/target/jmh-cp.txt")" org.openjdk.jmh.Main \
    "${opts[@]}" -rf json -rff "$json" -e '\.(CodecJmh|RuleJmh|DeviceRegistryJmh)\.' "dev\.iotpipeline\.$m\..*Jmh" >&2
  results+=("$json")
done
load_end=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)
note="Load average (1 min) of the machine: $load_start when the benchmarks started, $load_end when they ended. ${JMH_NOTE:-}"
report_cp="pipeline-events/target/test-classes:pipeline-events/target/classes:$(cat pipeline-events/target/jmh-cp.txt)"
command="bench/jmh.sh"
[[ -n "${JMH_OPTS:-}" ]] && command="JMH_OPTS='$JMH_OPTS' $command"
[[ -n "${JMH_MODULES:-}" ]] && command="JMH_MODULES='$JMH_MODULES' $command"
java -cp "$report_cp" dev.iotpipeline.events.bench.JmhReport docs/benchmarks/jmh.md "$command" "$note" \
  "${results[@]}"
cat docs/benchmarks/jmh.md
