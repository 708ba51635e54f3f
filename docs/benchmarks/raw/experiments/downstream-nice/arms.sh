#!/usr/bin/env bash
# Alternated arms of the seed shape from the Go generator on the --processes stack (GEN=go BENCH_PROCESSES=1 RUNS=1
# bench/seed-waves.sh, cold unless COLD=0), one fresh stack a run; each arm a set of processes whose every thread a
# loop puts at nice $NICE (5) as soon as it appears, from the stack's start:
#   S  none (stock)
#   R  the rules service and PostgreSQL: off the path of a POST's answer and of its data unit's delivery
#   D  R plus the decoder and notify: everything downstream of ingest's answer (the broker stays at 0, on that path)
cd "$(dirname "$0")/../../../../.." || exit 1
DIR=${DIR:-/tmp/downstream-nice} NICE=${NICE:-5}
mkdir -p "$DIR"

# renice_loop REGEX: every 200 ms, every new thread of a service process matching REGEX (or of PostgreSQL) to $NICE.
renice_loop() {
  local regex=$1 pids tids t
  declare -A seen=()
  while :; do
    pids="$(pgrep -f -- "-jar .*($regex)-service" || true) $(pgrep -x postgres || true)"
    tids=()
    for pid in $pids; do
      for t in /proc/$pid/task/*; do
        t=${t##*/}
        [ -n "${seen[$t]:-}" ] || { seen[$t]=1; tids+=("$t"); }
      done
    done
    [ ${#tids[@]} -eq 0 ] || renice -n "$NICE" -p "${tids[@]}" > /dev/null 2>&1 || true
    sleep 0.2
  done
}

i=${START:-0}
for arm in ${ARMS:-S R D D R S}; do
  i=$((i+1))
  loop=
  case $arm in
    R) renice_loop rules & loop=$! ;;
    D) renice_loop 'decoder|rules|notify' & loop=$! ;;
  esac
  echo "$(date +%T) run $i arm $arm"
  tail -F "$DIR/$i-$arm/run-1/stack.log" > "$DIR/$i-$arm.stack.log" 2>/dev/null &
  tailer=$!
  BENCH_PROCESSES=1 GEN=go COLD=${COLD:-1} RUNS=1 OUT="$DIR/$i-$arm" REPORT="$DIR/$i-$arm.md" bench/seed-waves.sh \
    > "$DIR/$i-$arm.log" 2>&1
  echo "$(date +%T) run $i done rc=$?"
  kill "$tailer" ${loop:+"$loop"}
done
