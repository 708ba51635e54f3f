#!/usr/bin/env bash
# Throughput (issue 17): EM300-TH uplinks posted open-loop by bench/postload (Go; k6 would take too much of two
# cores at these rates) at a fixed rate, counted as accepted (202) and as stored in notify's history.
# Per fresh stack, RUNS (3) times: a warm-up, the single-POST phase (RATE requests/s, one uplink each), then the
# batched phase (BATCH_RATE requests/s of BATCH_SIZE uplinks), each for DURATION. After each phase it waits (at
# most DRAIN_TIMEOUT s) until the history holds every accepted uplink, so the report gives the rate stored, not
# only the rate accepted. Raw results: $OUT/run-N/; report: $REPORT.
#   bench/throughput.sh                                             RATE=5000, BATCH_RATE=1000 x BATCH_SIZE=100, 60 s
#   RUNS=1 DURATION=10s RATE=300 BATCH_RATE=20 OUT=/tmp/tp REPORT=/tmp/tp.md bench/throughput.sh      a short try
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export RATE=${RATE:-5000} BATCH_RATE=${BATCH_RATE:-1000} BATCH_SIZE=${BATCH_SIZE:-100} DURATION=${DURATION:-60s}
# The warm-up runs at the measured rate for a minute: at 5,000 POSTs/s the JIT compilers still took 110, 91, 25, 10
# and 7 µs of CPU per uplink in five consecutive 20 s windows after the 20 s at 1,000/s this used to warm up with
# (docs/benchmarks/throughput.md), so a shorter one measured the compilers more than the pipeline. The cold start
# is bench/latency.sh's to measure.
export WARMUP=${WARMUP:-60s} WARMUP_RATE=${WARMUP_RATE:-$RATE} DEVICES=${DEVICES:-1000}
# One keep-alive connection per device, as devices that post directly hold them: with fewer, a pause longer than
# connections ÷ rate (51 ms for 256 at 5,000/s) leaves requests unsent, which the report counts as errors.
export CONNS=${CONNS:-$DEVICES}
export DRAIN_TIMEOUT=${DRAIN_TIMEOUT:-120} OUT=${OUT:-docs/benchmarks/raw/throughput}
REPORT=${REPORT:-docs/benchmarks/throughput.md}
export POSTLOAD=$PWD/bench/postload/postload
(cd bench/postload && go build -o postload .)
rm -rf "$OUT"
mkdir -p "$OUT"
{
  echo "cores: $(nproc)"
  echo "cpu: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
  echo "jdk: $(java -version 2>&1 | head -1)"
  echo "generator: bench/postload ($(go version | cut -d' ' -f3)), $CONNS connections, $DEVICES devices, on the same machine"
} > "$OUT/env.txt"

# CPU seconds used so far by the stack: the stack JVM (the launcher of this function), PostgreSQL's postmaster
# (pg_ctl detaches it from the JVM) and everything under them (the broker, PostgreSQL's backends), less this
# function's own processes (the load generator). Children that exited count in their parent's cutime/cstime.
stack_cpu() {
  local stack=$PPID pg
  grep -q LocalStackMain "/proc/$stack/cmdline" 2>/dev/null \
    || stack=$(listener_pid "$IOT_INGEST_PORT")
  pg=$(head -1 "$(find "$IOT_DATA_DIR" -name postmaster.pid | head -1)")
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v roots="$stack $pg" -v self=$$ -v hz="$(getconf CLK_TCK)" '
    { rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " "); parent[$1] = f[2]; ticks[$1] = f[12] + f[13] + f[14] + f[15] }
    END {
      n = split(roots, r, " "); for (i = 1; i <= n; i++) root[r[i]] = 1
      for (p in ticks) {
        for (q = p; q + 0 > 1 && !(q in root) && q != self; q = parent[q]) {}
        if ((q in root) && q != self) total += ticks[p]
      }
      printf "%.2f\n", total / hz
    }'
}

# phase NAME RATE BATCH DIR: one open-loop run of the generator, then the drain wait; DIR/NAME.json is the
# generator's report, DIR/NAME-stored.json what the history and the stack's CPU counter say about it.
phase() {
  local name=$1 rate=$2 batch=$3 dir=$4 before meter cpu0 t0 accepted stored drain drained cpu1 t1
  before=$(stored_count); meter=$(stored_meter)
  cpu0=$(stack_cpu); t0=$(now_us)
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$rate" -batch "$batch" \
    -devices "$DEVICES" -conns "$CONNS" -duration "$DURATION" -report "$dir/$name.json" > "$dir/$name.log" 2>&1
  accepted=$(sed -n 's/.*"uplinksAccepted": *\([0-9]*\).*/\1/p' "$dir/$name.json")
  read -r stored drain drained < <(wait_stored "$before" "$meter" "$accepted")
  cpu1=$(stack_cpu); t1=$(now_us)
  printf '{"phase":"%s","storedBefore":%s,"stored":%s,"drainSeconds":%s,"drained":%s,"stackCpuSeconds":%s,"stackWallSeconds":%s,"cores":%s}\n' \
    "$name" "$before" "$stored" "$drain" "$drained" "$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN {printf "%.2f", b - a}')" \
    "$(awk -v d=$((t1 - t0)) 'BEGIN {printf "%.2f", d / 1e6}')" "$(nproc)" > "$dir/$name-stored.json"
  echo "$name: $accepted accepted, $stored stored, drain ${drain} s (drained: $drained)"
}

# Runs under the stack (bench_stack). Both phases share the stack, after a warm-up: the targets are about a
# sustained rate, which a JVM reaches only once its code is compiled (bench/latency.sh measures the cold start),
# and each phase starts with the previous one fully stored, so all it inherits is the warm code and the rows.
measure() {
  local dir=$1 stack broker jstat samplers=()
  # The stack's and the broker's collectors, once a second (cumulative counts and times): how often a pause stops
  # the services; and vmstat's run queue and steal time. Each file starts with the Unix time its sampling began, so
  # a stall (the generator's notSentBySecond) can be lined up with them.
  stack=$(listener_pid "$IOT_INGEST_PORT")
  broker=$(pgrep -f 'kafka\.Kafka ' | head -1 || true)
  jstat="$(dirname "$(readlink -f "$(command -v java)")")/jstat"
  # Each collection with its cause (jstat has none), logged from now on by the running JVMs.
  "$(dirname "$jstat")/jcmd" "$stack" VM.log output="file=$dir/gc-stack.log" what=gc decorators=time,uptime > /dev/null
  [ -z "$broker" ] || "$(dirname "$jstat")/jcmd" "$broker" VM.log output="file=$dir/gc-broker.log" what=gc \
    decorators=time,uptime > /dev/null
  { echo "# sampling from $(date +%s.%N)"; exec "$jstat" -gc -t "$stack" 1000; } > "$dir/gc.txt" 2>&1 &
  samplers+=($!)
  if [ -n "$broker" ]; then
    { echo "# sampling from $(date +%s.%N)"; exec "$jstat" -gc -t "$broker" 1000; } > "$dir/gc-broker.txt" 2>&1 &
    samplers+=($!)
  fi
  { echo "# sampling from $(date +%s.%N)"; exec vmstat -n -t 1; } > "$dir/vmstat.txt" 2>&1 &
  samplers+=($!)
  if [ "$WARMUP" != 0 ]; then
    DURATION=$WARMUP phase warmup "$WARMUP_RATE" 1 "$dir"
  fi
  phase single "$RATE" 1 "$dir"
  phase batched "$BATCH_RATE" "$BATCH_SIZE" "$dir"
  kill "${samplers[@]}" 2>/dev/null || true
}
export -f stack_cpu phase

for run in $(seq 1 "$RUNS"); do
  mkdir -p "$OUT/run-$run"
  echo "throughput run $run of $RUNS"
  bench_stack "$OUT/run-$run/stack.log" measure "$OUT/run-$run"
  rm -f "$OUT/run-$run/stack.log"
done
command="RUNS=$RUNS RATE=$RATE BATCH_RATE=$BATCH_RATE BATCH_SIZE=$BATCH_SIZE DURATION=$DURATION bench/throughput.sh"
./pipeline report throughput "$OUT" "$command" > "$REPORT"
# gc_rows LABEL FILE: one table row per run from a jstat -gc -t file.
gc_rows() {
  for run in $(seq 1 "$RUNS"); do
    [ -f "$OUT/run-$run/$2" ] || continue
    awk -v run="run-$run" -v label="$1" '
      $1 == "Timestamp" { for (i = 1; i <= NF; i++) col[$i] = i; next }
      !("YGC" in col) || $col["YGC"] !~ /^[0-9]+$/ { next }
      {
        if (n++ == 0) { y0 = $col["YGC"]; yt0 = $col["YGCT"]; f0 = $col["FGC"]; ft0 = $col["FGCT"] }
        else {
          if ($col["YGCT"] - yt > ylong) ylong = $col["YGCT"] - yt
          if ($col["FGCT"] - ft > flong) flong = $col["FGCT"] - ft
        }
        y = $col["YGC"]; yt = $col["YGCT"]; f = $col["FGC"]; ft = $col["FGCT"]; ou = $col["OU"]; oc = $col["OC"]
      }
      END {
        if (n == 0) { printf "| %s | %s | no samples | | | | | | |\n", run, label; exit }
        printf "| %s | %s | %d | %.2f | %.0f | %d | %.2f | %.0f | %.0f / %.0f |\n", run, label, y - y0, yt - yt0,
          ylong * 1000, f - f0, ft - ft0, flong * 1000, ou / 1024, oc / 1024
      }' "$OUT/run-$run/$2"
  done
}
{
  echo
  echo "## The collectors"
  echo
  echo "From \`jstat -gc\` once a second over each run (warm-up and both phases), for the stack JVM and the broker's:"
  echo "collections, their total and longest pause (the longest is the largest one-second increase, so two collections"
  echo "within a second count as one), and the old generation's use at the end. Raw: \`gc.txt\`, \`gc-broker.txt\`, with"
  echo "\`vmstat.txt\` (run queue, steal) and the generator's \`notSentBySecond\` (Unix seconds) beside them."
  echo
  echo "| run | JVM | young: count | young: total s | young: longest ms | full: count | full: total s | full: longest ms | old used / capacity MB |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
  gc_rows stack gc.txt
  gc_rows broker gc-broker.txt
  echo
  echo "Full collections and their causes (\`gc-stack.log\`, \`gc-broker.log\`: the JVMs' own log, from the warm-up on):"
  echo
  for run in $(seq 1 "$RUNS"); do
    for jvm in stack broker; do
      [ -f "$OUT/run-$run/gc-$jvm.log" ] || continue
      grep 'Pause Full' "$OUT/run-$run/gc-$jvm.log" | sed "s/^/- run-$run $jvm: /" || echo "- run-$run $jvm: none"
    done
  done
} >> "$REPORT"
cat "$REPORT"
