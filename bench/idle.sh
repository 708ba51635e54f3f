#!/usr/bin/env bash
# The stack at rest: what it costs the machine while nothing is sent, by process and by thread group, on RUNS (3)
# fresh stacks. Under each: WARM (30 s) of single POSTs at WARM_RATE (200/s, bench/postload) so that the paths traffic
# takes are compiled, SETTLE (120 s: the JIT compilers settle, with IOT_AOT=off too) of nothing, then WINDOW (60 s) measured: each part's CPU (bench/lib.sh's
# part_cpu: user + system, its JIT compiler threads apart) and every thread's (bench/lib.sh's threads, grouped by name
# with numbers folded) from /proc, read at the window's start and end. Figures are ms of CPU per second of the window
# (10 = 1 % of one core). The same periodic work goes on under load, where it is a share of every uplink's CPU.
# DEVICES (100) posts as that many devices; INACTIVITY_RULE=1 first creates an inactivity rule for them (one hour,
# the demo channel), so that rules keeps a (rule, device) state for each, as a fleet watched for silence does.
# BENCH_PROCESSES=1 runs ./pipeline run --processes. IOT_AOT=off measures without the AOT cache (the compilers
# then settle later: the JIT column says how much of a part was theirs). Raw: $OUT/run-N/; report: $REPORT.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
export -f threads
RUNS=${RUNS:-3}
export WARM=${WARM:-30s} WARM_RATE=${WARM_RATE:-200} SETTLE=${SETTLE:-120} WINDOW=${WINDOW:-60} DEVICES=${DEVICES:-100}
export INACTIVITY_RULE=${INACTIVITY_RULE:-}
export OUT=${OUT:-docs/benchmarks/raw/idle${BENCH_PROCESSES:+-processes}} POSTLOAD=$PWD/bench/postload/postload
REPORT=${REPORT:-docs/benchmarks/idle${BENCH_PROCESSES:+-processes}.md} TOP=${TOP:-16}
if [ "${1:-}" != --report-only ]; then
  (cd bench/postload && go build -o postload .)
  rm -rf "$OUT"
  mkdir -p "$OUT"
  echo "$(git rev-parse --short=8 HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo ' plus uncommitted changes')" > "$OUT/commit.txt"
fi

# Runs under the stack (bench_stack): the warm traffic, the pause, the window, into $1.
measure() {
  local dir=$1 pids="" part pid
  declare -A names=()
  if [ -n "$INACTIVITY_RULE" ]; then
    curl -sf -X POST "$RULES_URL/rules" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
      -d '{"name":"silent","type":"INACTIVITY","filter":{"channel":"demo"},"inactiveFor":"PT1H","severity":"MINOR"}' \
      > "$dir/rule.json"
  fi
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$WARM_RATE" -devices "$DEVICES" -conns 8 \
    -duration "$WARM" > "$dir/warm.log" 2>&1
  sleep "$SETTLE"
  # One entry per process, named by what it runs (in-JVM the services and the launcher are one).
  for part in ingest:$IOT_INGEST_PORT decoder:$IOT_DECODER_PORT rules:$IOT_RULES_PORT notify:$IOT_NOTIFY_PORT \
      broker:$IOT_KAFKA_PORT launcher:; do
    pid=${part#*:}
    pid=${pid:+$(listener_pid "$pid")}
    pid=${pid:-$PPID}
    names[$pid]=${names[$pid]:+${names[$pid]}+}${part%%:*}
  done
  for pid in "${!names[@]}"; do pids+=" ${names[$pid]}=$pid"; done
  pids+=" postgresql-tree=$(head -1 "$(find "$IOT_DATA_DIR" -name postmaster.pid | head -1)")"
  echo "$pids" > "$dir/pids.txt"
  part_cpu > "$dir/parts-start.txt"
  # shellcheck disable=SC2086 # one word per process
  threads $pids > "$dir/threads-start.txt"
  sleep "$WINDOW"
  part_cpu > "$dir/parts-end.txt"
  # shellcheck disable=SC2086
  threads $pids > "$dir/threads-end.txt"
}

for run in $(seq 1 "$RUNS"); do
  [ "${1:-}" != --report-only ] || break
  echo "idle run $run of $RUNS"
  mkdir -p "$OUT/run-$run"
  bench_stack "$OUT/run-$run/stack.log" measure "$OUT/run-$run"
  rm -f "$OUT/run-$run/stack.log"
done

# "run part cpu jit" for each run and part, in ms of CPU per s of the window.
parts() {
  for dir in "$OUT"/run-*; do
    join <(sort "$dir/parts-start.txt") <(sort "$dir/parts-end.txt") \
      | awk -v run="${dir##*-}" -v w="$WINDOW" '{ printf "%s %s %.1f %.1f\n", run, $1, ($4 - $2) * 1000 / w, ($5 - $3) * 1000 / w }'
  done
}
thread_groups() {
  local hz
  hz=$(getconf CLK_TCK)
  for dir in "$OUT"/run-*; do
    # A group's ticks summed over its threads at each end; threads that started or ended in the window count
    # from zero or not at all, which is what a thread pool that idles does not do.
    join <(awk '{ t[$1 "/" $2] += $3 } END { for (k in t) print k, t[k] }' "$dir/threads-start.txt" | sort) \
      <(awk '{ t[$1 "/" $2] += $3 } END { for (k in t) print k, t[k] }' "$dir/threads-end.txt" | sort) \
      | awk -v run="${dir##*-}" -v w="$WINDOW" -v hz="$hz" '{ printf "%s %s %.1f\n", run, $1, ($3 - $2) * 1000 / hz / w }'
  done | awk '{ sub(/\/rules-[a-fN]+-$/, "/rules-streams", $2); t[$1 " " $2] += $3 } END { for (k in t) printf "%s %.1f\n", k, t[k] }'
}
# medians COLUMN: reads "run key ... value" lines (the value in COLUMN) and prints "key median (min – max)" per key.
medians() {
  awk -v col="$1" '{ v[$2] = v[$2] " " $col } END { for (k in v) print k v[k] }' \
    | while read -r key values; do
      sorted=$(echo "$values" | tr ' ' '\n' | sort -g | paste -sd' ')
      echo "$key $(echo "$sorted" | awk '{ print $(int((NF + 1) / 2)) }') ($(echo "$sorted" | sed 's/ / – /; s/ .* / – /'))"
    done
}
runs=$(ls -d "$OUT"/run-* | wc -l)
{
  echo "# The stack at rest: CPU while nothing is sent"
  echo
  echo "- **Command:** \`${BENCH_PROCESSES:+BENCH_PROCESSES=1 }${IOT_AOT:+IOT_AOT=$IOT_AOT }${INACTIVITY_RULE:+INACTIVITY_RULE=1 }RUNS=$RUNS bench/idle.sh\`" \
    "(WARM=$WARM at $WARM_RATE single POSTs/s from $DEVICES devices${INACTIVITY_RULE:+ watched by a one-hour inactivity rule}," \
    "SETTLE=$SETTLE s of nothing, WINDOW=$WINDOW s measured)"
  echo "- **Commit:** $(cat "$OUT/commit.txt" 2>/dev/null || echo unknown);" \
    "$(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)); $(java -version 2>&1 | head -1);" \
    "stack: \`./pipeline run${BENCH_PROCESSES:+ --processes}\`, fresh for each run"
  echo "- **Figures:** ms of CPU per second of the window (10 = 1 % of one core), user + system from /proc; medians" \
    "over the $runs runs with the range in brackets"
  echo
  echo "| part | CPU, ms/s | of which its JIT compilers |"
  echo "|---|---|---|"
  join <(parts | awk '{ print $1, $2, $3 }' | medians 3 | sort) <(parts | awk '{ print $1, $2, $4 }' | medians 3 | sort) \
    | sed -E 's/^([^ ]+) ([^)]*\)) (.*)$/| \1 | \2 | \3 |/'
  total=$(parts | awk '{ t[$1] += $3; j[$1] += $4 } END { for (r in t) printf "%s all %.1f %.1f\n", r, t[r], j[r] }')
  join <(echo "$total" | awk '{ print $1, $2, $3 }' | medians 3) <(echo "$total" | awk '{ print $1, $2, $4 }' | medians 3) \
    | sed -E 's/^([^ ]+) ([^)]*\)) (.*)$/| **\1** | **\2** | \3 |/'
  echo
  echo "The $TOP busiest thread groups (process/thread name, numbers folded to N):"
  echo
  echo "| thread group | CPU, ms/s |"
  echo "|---|---|"
  thread_groups | medians 3 | sort -k2 -gr | head -"$TOP" | awk '{ k = $1; $1 = ""; sub(/^ /, ""); printf "| `%s` | %s |\n", k, $0 }'
} > "$REPORT"
cat "$REPORT"
