#!/usr/bin/env bash
# Alternated arms of the seed shape from the Go generator (GEN=go RUNS=1 bench/seed-waves.sh; WAVES and COLD reach
# it), in-JVM, one fresh stack a run, on a build with answer-writers.patch applied to 1185ddaf (cold-wave-arms'
# on-ack.patch plus IOT_EXP_WRITERS):
#   S   the request's own virtual thread waits for Kafka and writes the answer (ingest.device-path.answer-on-ack=false)
#   A   the answer written by the thread that completes the publish: the producer's I/O thread
#   P<n> the answer handed from that thread to n platform threads of its own, which write it (IOT_EXP_WRITERS=n)
# Runs here: WAVES=1 COLD=0 ARMS="S A P2 P2 A S" DIR=waves, then COLD=1 ARMS="S P2 P2 S S P2" DIR=cold.
cd "$(dirname "$0")/../../../../.." || exit 1
DIR=${DIR:-/tmp/answer-writers}
mkdir -p "$DIR"
i=${START:-0}
for arm in ${ARMS:-S A P2 P2 A S}; do
  i=$((i+1))
  env=()
  case $arm in
    S) env=(INGEST_DEVICEPATH_ANSWERONACK=false) ;;
    P*) env=(IOT_EXP_WRITERS="${arm#P}") ;;
  esac
  echo "$(date +%T) run $i arm $arm: ${env[*]}"
  tail -F "$DIR/$i-$arm/run-1/stack.log" > "$DIR/$i-$arm.stack.log" 2>/dev/null &
  tailer=$!
  env "${env[@]}" GEN=go COLD=${COLD:-1} RUNS=1 OUT="$DIR/$i-$arm" REPORT="$DIR/$i-$arm.md" bench/seed-waves.sh \
    > "$DIR/$i-$arm.log" 2>&1
  echo "$(date +%T) run $i done rc=$?"
  kill "$tailer"
done
