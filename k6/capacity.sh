#!/usr/bin/env bash
# Capacity and stress (seed 002), driven by k6/run capacity [--smoke]; writes into DIR (the first argument):
#   1. REPEATS (3) ramps of k6/capacity.js MODE=ramp, each giving the maximum sustainable rate;
#   2. RATE50 = 50 % of their median (./pipeline report rate50);
#   3. REPEATS pairs of steady runs at RATE50 for DURATION (60 s): one unstressed, one while stress-ng loads CPU,
#      memory and disk on the same box (STRESS_ARGS);
#   4. capacity-report.md and capacity.json (./pipeline report capacity): the maxima with their spread, and the
#      stressed runs' slowdown against the unstressed ones (per percentile, mean of the repeats, with their spread).
# --smoke (SMOKE=1): one tiny ramp only, without stress-ng, failing on any lost or failed uplink.
# Between runs it waits until the stack has stored everything of the previous run (at most DRAIN_WAIT seconds).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/k6/lib/k6.sh"
dir=$1
shift
find_k6
export MACHINE=${MACHINE:-$(machine_description)}

NOTIFY=${NOTIFY_URL:-http://127.0.0.1:8083}
TOKEN=${DASHBOARD_TOKEN:-demo-dashboard-token}
REPEATS=${REPEATS:-3}
DURATION=${DURATION:-60}
DRAIN_WAIT=${DRAIN_WAIT:-300}
STRESS_ARGS=${STRESS_ARGS:---cpu 2 --vm 1 --vm-bytes 30% --hdd 1 --hdd-bytes 1g}

if [ "${SMOKE:-}" = 1 ]; then
  MODE=ramp run_k6 "$dir" "$ROOT/k6/capacity.js" "$@"
  exit $?
fi

# Waits until the history count of the channel of the run in $1 stops changing: the backlog of a ramp that went
# past capacity must not spill into the next measurement.
drain() {
  local channel last=-1 now stable=0 waited=0
  channel=$(jq -r '.setup_data.channel // empty' "$1"/*-summary.json 2>/dev/null | head -1)
  [ -n "$channel" ] || return 0
  while [ "$waited" -lt "$DRAIN_WAIT" ]; do
    now=$(curl -s -H "Authorization: Bearer $TOKEN" "$NOTIFY/data-units/count?channel=$channel" | jq -r '.count // -1')
    if [ "$now" = "$last" ]; then stable=$((stable + 1)); else stable=0; fi
    [ "$stable" -ge 3 ] && break
    last=$now
    sleep 2
    waited=$((waited + 2))
  done
  k6_log "drained: $channel holds $last data units (waited ${waited} s)"
  sleep 5
}

maxima=()
for i in $(seq 1 "$REPEATS"); do
  k6_log "ramp $i of $REPEATS"
  rc=0
  MODE=ramp run_k6 "$dir/ramp-$i" "$ROOT/k6/capacity.js" "$@" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 99 ] || { k6_log "ramp $i: k6 exited with $rc"; exit "$rc"; }
  maxima+=("$(jq -r .maxSustainable "$dir/ramp-$i/capacity-ramp-result.json")")
  drain "$dir/ramp-$i"
done
RATE50=${RATE50:-$("$ROOT/pipeline" report rate50 "$dir")}
k6_log "maximum sustainable rates: ${maxima[*]}; steady runs at $RATE50/s (half their median)"
[ "$RATE50" -gt 0 ] || { k6_log "no sustainable rate found; not running the steady part"; exit 1; }

stressor=$(command -v stress-ng || true)
[ -n "$stressor" ] || k6_log "stress-ng is not installed (apt-get install stress-ng): the stressed runs are skipped"
steady_failed=0
for i in $(seq 1 "$REPEATS"); do
  k6_log "steady $i of $REPEATS at $RATE50/s, no stress"
  rc=0
  MODE=steady RATE=$RATE50 DURATION=$DURATION run_k6 "$dir/steady-$i" "$ROOT/k6/capacity.js" "$@" || rc=$?
  [ "$rc" = 0 ] || steady_failed=1
  drain "$dir/steady-$i"
  [ -n "$stressor" ] || continue
  k6_log "steady $i of $REPEATS at $RATE50/s under stress-ng $STRESS_ARGS"
  scratch=$(mktemp -d /tmp/k6-stress.XXXXXX)
  # shellcheck disable=SC2086
  "$stressor" $STRESS_ARGS --temp-path "$scratch" --timeout "$((DURATION + 10))s" --metrics-brief \
    > "$dir/stress-ng-$i.log" 2>&1 &
  stress_pid=$!
  rc=0
  MODE=steady RATE=$RATE50 DURATION=$DURATION STRESS="stress-ng $STRESS_ARGS" \
    run_k6 "$dir/stressed-$i" "$ROOT/k6/capacity.js" "$@" || rc=$?
  kill "$stress_pid" 2>/dev/null || true
  wait "$stress_pid" 2>/dev/null || true
  rm -rf "$scratch"
  drain "$dir/stressed-$i"
done

STRESS_ARGS=$([ -n "$stressor" ] && echo "$STRESS_ARGS") "$ROOT/pipeline" report capacity "$dir" "$RATE50"
k6_log "capacity report: $dir/capacity-report.md"
exit "$steady_failed"
