#!/usr/bin/env bash
# Every k6 suite at full size, each against a fresh throwaway embedded stack (bench/lib.sh: ports 28080-28083),
# writing docs/benchmarks/k6-<suite>.md (the run's report: command, date, machine, figures beside the seed's) and
# docs/benchmarks/raw/k6-<suite>/ (k6's JSON summaries). The HTML dashboards stay in k6/reports/.
#
#   bench/k6-full.sh                     # all suites, about 35 minutes on 2 cores
#   bench/k6-full.sh suite2-alarms fanout
#   DOCS=/tmp/check EXTRA=--smoke bench/k6-full.sh    # the same machinery at smoke sizes, reports elsewhere
#   DOCS=/tmp/ab RUN_ONLY=1 bench/k6-full.sh suite1-throughput   # only a suite's first run (suite 1: 10x the seed)
#
# Sizes (the issue's targets): suite 1 at 5,000 devices x 60 uplinks at 1/s (10x the seed; 100 gateways posting
# batches of 50, as network servers do; single POSTs top out near 1,000/s on 2 cores, see k6-capacity.md), then at
# the seed's own shape (500 devices, one POST per uplink); availability and
# suite 2 at the seed's 100 x 100; fan-out 50 subscribers at 10/s for 60 s; many devices 3,000 + 500 joining at
# 1/6 Hz, 60 s per phase; capacity 3 ramps and 3 x 2 steady runs at 50 % with and without stress-ng.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

# Runs per suite: "k6/run arguments" entries separated by ';', each on its own fresh stack, all in one report file.
declare -A RUNS=(
  [suite1-throughput]="-e DEVICES=5000 -e ITERATIONS=60 -e BATCH=50; -e DEVICES=500 -e ITERATIONS=60"
  [availability]=" "
  [suite2-alarms]=" "
  [fanout]=" "
  [many-devices]=" "
  [capacity]=" "
)
ORDER="suite1-throughput availability suite2-alarms fanout many-devices capacity"
suites=${*:-$ORDER}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
overall=0
DOCS=${DOCS:-docs/benchmarks}
export WARMUP=${WARMUP:-45s} WARMUP_RATE=${WARMUP_RATE:-300} EXTRA=${EXTRA:-}
mkdir -p "$DOCS"

# The capacity suite at full size runs its stressed half under stress-ng, and without it writes a report with no
# stressed rows (two sessions lost a capacity run that way): installed here as the test command installs Chromium.
ensure_stress_ng() {
  command -v stress-ng >/dev/null 2>&1 && return
  ./pipeline apt-install "for the capacity suite's stressed runs" stress-ng ||
    echo "stress-ng could not be installed: the capacity report will have no stressed runs" >&2
}
case " $suites " in
  *" capacity "*) [[ "$EXTRA" == *--smoke* ]] || ensure_stress_ng ;;
esac

# one_run SUITE RUN_DIR [k6/run arguments...]: runs under the stack (bench_stack). A fresh JVM answers its first tens
# of seconds of traffic while still compiling; warm it up on another channel first (all of ingest, decoder, history
# writer and WebSocket fan-out), as a deployment that has been running is warm.
one_run() {
  local suite=$1 run_dir=$2
  shift 2
  [[ " $EXTRA " == *" --smoke "* ]] || ./pipeline wsload -ws "$WS_URL" \
    -ingest "$INGEST_URL" -subscribers 1 -rate "$WARMUP_RATE" -duration "$WARMUP" -channel warm-up >/dev/null 2>&1 || true
  RUN_DIR=$run_dir k6/run "$suite" "$@"
}

for suite in $suites; do
  [ -n "${RUNS[$suite]+set}" ] || { echo "unknown suite $suite (known: $ORDER)" >&2; exit 2; }
  out=$DOCS/k6-$suite.md
  { echo "<!-- written by bench/k6-full.sh; do not edit by hand -->"; echo; echo "# k6 suite $suite at full size"; } > "$out"
  rm -rf "$DOCS/raw/k6-$suite"
  n=0
  IFS=';' read -ra runs <<< "${RUNS[$suite]}"
  for args in "${runs[@]}"; do
    n=$((n + 1))
    [ -z "${RUN_ONLY:-}" ] || [ "$n" = "$RUN_ONLY" ] || continue
    # EXTRA=--smoke checks the machinery: the suites' smoke sizes, not the full-size arguments above.
    if [[ " $EXTRA " == *" --smoke "* ]]; then args=$EXTRA; else args="$args $EXTRA"; fi
    read -ra argv <<< "$args"
    log_file="/tmp/iot-pipeline-k6-full-$suite-$n-$$.log"
    echo "== $suite ${argv[*]:-(default size)}: starting a fresh stack (log: $log_file)" >&2
    run_dir="k6/reports/full-$stamp/$suite-$n"
    rc=0
    bench_stack "$log_file" one_run "$suite" "$run_dir" ${argv[@]+"${argv[@]}"} || rc=$?
    rm -rf "$IOT_DATA_DIR"
    [ "$rc" = 0 ] || overall=1

    report=$run_dir/$suite-report.md
    [ "$suite" = capacity ] && report=$run_dir/capacity-report.md
    [ -f "$report" ] || [ "$suite" != capacity ] || report=$run_dir/capacity-ramp-report.md
    {
      echo
      echo "Produced by \`bench/k6-full.sh $suite\` on $(date -u +%Y-%m-%d) against a fresh embedded stack"
      echo "(\`./pipeline run --no-build\` on ports $IOT_INGEST_PORT-$IOT_NOTIFY_PORT, default settings, stack JVM ${IOT_JAVA_OPTS:-$(sed -n 's/^STACK_JAVA_OPTS="\(.*\)"$/\1/p' pipeline)}), warmed up for $WARMUP at"
      echo "$WARMUP_RATE uplinks/s on another channel with bench/wsload, k6 on the same machine;"
      echo "k6 exit code $rc$([ "$rc" = 99 ] && echo ' (a threshold failed: see below)')."
      echo
      if [ -f "$report" ]; then ./pipeline report section "$report"; else echo "No report was written; see $run_dir/k6.log."; fi
    } >> "$out"
    find "$run_dir" \( -name '*-summary.json' -o -name 'capacity.json' -o -name '*-result.json' \) | while read -r f; do
      rel=${f#"$run_dir"/}
      mkdir -p "$DOCS/raw/k6-$suite/$n/$(dirname "$rel")"
      cp "$f" "$DOCS/raw/k6-$suite/$n/$rel"
    done
    echo "== $suite ${argv[*]:-(default size)}: k6 exit code $rc" >&2
  done
  echo "== $suite: report $out" >&2
done
exit "$overall"
