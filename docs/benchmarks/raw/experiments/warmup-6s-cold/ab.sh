#!/usr/bin/env bash
# ad hoc A/B: warm-up length before READY, --processes, cold/warm seed shape
cd "$(dirname "$0")/../../../../.."
for arm in "$@"; do
  n=${arm%%:*}; v=${arm#*:}
  env ${v:+IOT_WARMUP_MAXTIME=$v} BENCH_PROCESSES=1 RUNS=1 OUT=/tmp/wab/$n REPORT=docs/benchmarks/raw/experiments/warmup-6s-cold/latency-processes-$n.md bench/latency.sh > /tmp/wab/$n.log 2>&1
  echo "$n (${v:-2s}): $(grep -A3 '^## cold' docs/benchmarks/raw/experiments/warmup-6s-cold/latency-processes-$n.md | true) "
  awk '/^## cold/{c=1} /^## warm/{c=2} /^\| ingest POST/{p[c]=$0} /^\| time_lapse/{t[c]=$0} END{print "cold POST " p[1]; print "cold tl " t[1]; print "warm POST " p[2]; print "warm tl " t[2]}' docs/benchmarks/raw/experiments/warmup-6s-cold/latency-processes-$n.md
  grep -o "started in [0-9.]* s\|median [0-9.]* s" docs/benchmarks/raw/experiments/warmup-6s-cold/latency-processes-$n.md | head -2 | paste -sd' '
done
