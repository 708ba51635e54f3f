#!/usr/bin/env bash
# CPU per uplink by process (issue 26): how many µs of CPU each part of the pipeline spends on one uplink, for
# single POSTs and for batches, measured from /proc while bench/postload (Go) posts EM300-TH uplinks open-loop at a
# rate the stack sustains (so the figures are the cost of the work, not of an overload). Per fresh stack with one
# process per service (--processes), RUNS (3) times: a warm-up (not counted), the single-POST phase (RATE
# requests/s), then the batched phase (BATCH_RATE requests/s of BATCH_SIZE uplinks), each for DURATION; a phase's
# CPU runs from its start until notify's history holds every uplink it had accepted. Raw results: $OUT/run-N/;
# report: $REPORT (medians over the runs, the range in brackets).
#   bench/cpu-per-uplink.sh                                       RATE=500, BATCH_RATE=30 x BATCH_SIZE=100, 30 s
#   RUNS=1 DURATION=10s OUT=/tmp/cpu REPORT=/tmp/cpu.md bench/cpu-per-uplink.sh                      a short try
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export RATE=${RATE:-500} BATCH_RATE=${BATCH_RATE:-30} BATCH_SIZE=${BATCH_SIZE:-100} DURATION=${DURATION:-30s}
export WARMUP=${WARMUP:-45s} WARMUP_RATE=${WARMUP_RATE:-1000} IDLE=${IDLE:-15} DEVICES=${DEVICES:-1000} CONNS=${CONNS:-64}
export DRAIN_TIMEOUT=${DRAIN_TIMEOUT:-120} OUT=${OUT:-docs/benchmarks/raw/cpu-per-uplink}
export BENCH_PROCESSES=1
REPORT=${REPORT:-docs/benchmarks/cpu-per-uplink.md}
export POSTLOAD=$PWD/bench/postload/postload PARTS="ingest decoder rules notify broker postgresql launcher"
(cd bench/postload && go build -o postload .)
rm -rf "$OUT"
mkdir -p "$OUT"

# phase NAME RATE BATCH DIR: one open-loop run of the generator and the drain wait; DIR/NAME.json is the
# generator's report, DIR/NAME-cpu.txt "part seconds" per part over the phase, with the uplinks stored.
phase() {
  local name=$1 rate=$2 batch=$3 dir=$4 before meter accepted stored drain drained t0 t1
  before=$(stored_count); meter=$(stored_meter)
  part_cpu > "$dir/$name-cpu0.txt"; t0=$(now_us)
  "$POSTLOAD" -url "$INGEST_URL" -key "$DEVICE_KEY" -channel demo -rate "$rate" -batch "$batch" \
    -devices "$DEVICES" -conns "$CONNS" -duration "$DURATION" -report "$dir/$name.json" > "$dir/$name.log" 2>&1
  accepted=$(sed -n 's/.*"uplinksAccepted": *\([0-9]*\).*/\1/p' "$dir/$name.json")
  read -r stored drain drained < <(wait_stored "$before" "$meter" "$accepted")
  part_cpu > "$dir/$name-cpu1.txt"; t1=$(now_us)
  {
    join "$dir/$name-cpu0.txt" "$dir/$name-cpu1.txt" | awk '{printf "%s %.2f\n", $1, $4 - $2}'
    echo "generator $(sed -n 's/.*"cpuSeconds": *\([0-9.]*\).*/\1/p' "$dir/$name.json")"
    echo "stored $stored"
    echo "accepted $accepted"
    echo "errors $(sed -n 's/.*"errors": *\([0-9]*\).*/\1/p' "$dir/$name.json")"
    echo "drained $drained"
    echo "wall $(awk -v d=$((t1 - t0)) 'BEGIN {printf "%.2f", d / 1e6}')"
  } > "$dir/$name-cpu.txt"
  rm "$dir/$name-cpu0.txt" "$dir/$name-cpu1.txt"
  echo "$name: $accepted accepted, $stored stored, drain ${drain} s (drained: $drained)"
}

# idle DIR: "part seconds-per-second" with no load, what every part spends on its own (polls, heartbeats, timers,
# the JIT), which a phase's figures then leave out: at a few hundred uplinks/s it would otherwise dominate them.
idle() {
  local dir=$1
  sleep 5
  part_cpu > "$dir/idle-cpu0.txt"
  sleep "$IDLE"
  part_cpu > "$dir/idle-cpu1.txt"
  join "$dir/idle-cpu0.txt" "$dir/idle-cpu1.txt" | awk -v s="$IDLE" '{printf "%s %.4f\n", $1, ($4 - $2) / s}' \
    > "$dir/idle-cpu.txt"
  rm "$dir/idle-cpu0.txt" "$dir/idle-cpu1.txt"
}

measure() {
  local dir=$1
  if [ "$WARMUP" != 0 ]; then
    DURATION=$WARMUP phase warmup "$WARMUP_RATE" 1 "$dir"
  fi
  idle "$dir"
  phase single "$RATE" 1 "$dir"
  phase batched "$BATCH_RATE" "$BATCH_SIZE" "$dir"
}
export -f phase idle

for run in $(seq 1 "$RUNS"); do
  mkdir -p "$OUT/run-$run"
  echo "cpu-per-uplink run $run of $RUNS"
  bench_stack "$OUT/run-$run/stack.log" measure "$OUT/run-$run"
  rm -f "$OUT/run-$run/stack.log"
done

# µs per uplink stored above idle (the part's idle rate times the phase's wall time left out; the generator has no
# idle share): median over the runs and the range, per part (or "pipeline": all parts) and phase.
cell() {
  local phase=$1 part=$2
  for run in "$OUT"/run-*; do
    awk -v part="$part" -v parts="$PARTS" '
      BEGIN {n = split(part == "pipeline" ? parts : part, p, " "); for (i = 1; i <= n; i++) want[p[i]] = 1}
      FNR == NR {idle[$1] = $2; next}
      $1 == "stored" {s = $2} $1 == "wall" {w = $2}
      ($1 in want) {used[$1] = $2}
      END {for (k in used) c += used[k] - idle[k] * w; printf "%.1f\n", s ? c * 1e6 / s : 0}' \
      "$run/idle-cpu.txt" "$run/$phase-cpu.txt"
  done | sort -n | awk '{v[NR] = $1} END {m = v[int((NR + 1) / 2)]; printf "%s", m; if (NR > 1) printf " (%s–%s)", v[1], v[NR]}'
}
# A part's idle CPU share of one core, %: median over the runs.
idle_share() {
  for run in "$OUT"/run-*; do awk -v part="$1" '$1 == part {printf "%.1f\n", $2 * 100}' "$run/idle-cpu.txt"; done \
    | sort -n | awk '{v[NR] = $1} END {printf "%s", v[int((NR + 1) / 2)]}'
}
sum() { cat "$OUT"/run-*/"$1"-cpu.txt | awk -v k="$2" '$1 == k {s += $2} END {printf "%d", s}'; }
{
  echo "# CPU per uplink, by process"
  echo
  echo "- **Command:** \`RUNS=$RUNS RATE=$RATE BATCH_RATE=$BATCH_RATE BATCH_SIZE=$BATCH_SIZE DURATION=$DURATION bench/cpu-per-uplink.sh\`"
  echo "- **Commit:** $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo ' (with uncommitted changes)'); $(nproc) cores ($(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)); $(java -version 2>&1 | head -1)"
  echo "- **Stack:** \`./pipeline run --processes\` (one JVM per service), fresh per run; warm-up $WARMUP at $WARMUP_RATE/s first, not counted"
  echo "- **Load:** bench/postload, open loop, $CONNS connections, $DEVICES devices, on the same machine: single = $RATE requests/s × 1 uplink, batched = $BATCH_RATE requests/s × $BATCH_SIZE uplinks, each for $DURATION"
  echo "- **Figures:** µs of CPU (user + system, from /proc, a process with its descendants) per uplink stored, from the phase's start until notify's history held every uplink it accepted, less what the process spends idle (measured for ${IDLE} s after the warm-up, times the phase's wall time); medians of $RUNS runs, the range in brackets. The generator's is its own getrusage"
  echo
  echo "| process | idle, % of a core | single POSTs, µs per uplink | batches of $BATCH_SIZE, µs per uplink |"
  echo "|---|---|---|---|"
  for part in $PARTS; do
    echo "| $part | $(idle_share "$part") | $(cell single "$part") | $(cell batched "$part") |"
  done
  echo "| **pipeline** (all but the generator) | | **$(cell single pipeline)** | **$(cell batched pipeline)** |"
  echo "| generator | | $(cell single generator) | $(cell batched generator) |"
  echo
  echo "Over all runs: single $(sum single accepted) accepted, $(sum single stored) stored, $(sum single errors) errors;" \
    "batched $(sum batched accepted) accepted, $(sum batched stored) stored, $(sum batched errors) errors."
  echo "\`launcher\` is the JVM that starts and watches the others (\`LocalStackMain\`); \`broker\` is the embedded Kafka broker (KRaft), \`postgresql\` the postmaster with its backends."
} > "$REPORT"
cat "$REPORT"
