#!/usr/bin/env bash
# Rules benchmark (issue 5), with JMH (rules-service's RuleJmh): evaluations/s with 1, 100 and 1,000 rules over
# 10,000 devices through the real engine, one thread, no Kafka. JMH's settings: JMH_OPTS (`-p rules=100` picks rule
# counts). Writes REPORT, by default docs/benchmarks/rules.md (run bench/rules-latency.sh after it: it appends).
# Usage: [JMH_OPTS='-f 1 -wi 3 -w 2s -i 5 -r 2s'] [REPORT=file.md] bench/rules.sh
set -euo pipefail
shopt -s inherit_errexit # a failed build inside $(...) stops the script
cd "$(dirname "$0")/.."
source bench/lib.sh
read -r -a opts <<< "${JMH_OPTS:--f 1 -wi 3 -w 2s -i 5 -r 2s}"
report=${REPORT:-docs/benchmarks/rules.md}
cp=$(jmh_classpath rules-service)
json=$(mktemp --suffix=.json)
load_start=$(load_average)
java -cp "$cp" org.openjdk.jmh.Main "${opts[@]}" -rf json -rff "$json" 'dev\.iotpipeline\.rules\.alarm\.RuleJmh\.' >&2
load_end=$(load_average)
table=$(java -cp "$cp" dev.iotpipeline.rules.alarm.RuleJmhReport "$json")
rm -f "$json"
command="bench/rules.sh"
[[ -n "${REPORT:-}" ]] && command="REPORT=$REPORT $command"
[[ -n "${JMH_OPTS:-}" ]] && command="JMH_OPTS='$JMH_OPTS' $command"
{
  echo "# Rules benchmark"
  echo
  echo "Command: \`$command\` on this 2-core machine, $(date -u +%Y-%m-%d)."
  echo
  echo "JMH benchmark \`RuleJmh\` (rules-service's test sources): the alarm processor's work per data unit (select the"
  echo "rules whose filter matches, evaluate each compiled condition) on one thread over 10,000 devices taken in turn,"
  echo "without Kafka; every rule's filter matches every data unit, so each data unit is evaluated against every rule."
  echo "Load average (1 min) of the machine: $load_start when the benchmark started, $load_end when it ended; other"
  echo "load only adds time."
  echo
  echo "$table"
} > "$report"
cat "$report"
