#!/usr/bin/env bash
# Alternated arms of the seed shape from the Go generator (GEN=go RUNS=1 bench/seed-waves.sh, cold unless COLD=0),
# in-JVM, one fresh stack a run, each arm an environment of the stack:
#   B      as built (before the change: the request's virtual thread waits for Kafka and writes the answer)
#   <n>    at most n device requests past the lean path's credential check at once, a fair semaphore
#          (IOT_EXP_ACTIVE=n; a build with experiment.patch applied to 43d46c03)
#   W      the answer written by the thread that completes the publish, with blocking output (IOT_EXP_ASYNC=1; the
#          same build; its reports name the arm A)
#   N<k>   the JIT compiler threads at nice k (-XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=k)
#   A, S   a build with on-ack.patch applied: A as built (the answer from the completing thread, non-blocking
#          output), S with ingest.device-path.answer-on-ack=false (the request's own thread waits, as before)
#   P<n>   a build with on-ack.patch and then ../answer-writers/answer-writers.patch (a switch) applied: the answer
#          handed from the completing thread to n platform threads, which write it (IOT_EXP_WRITERS=n)
# The stack's console is kept beside each report for its READY time. Runs here: ARMS="B 64 32 B 64 32" DIR=active,
# ARMS="B N10 N19 B N10 N19 B N10 N19" DIR=nice, ARMS="B W W B B W" DIR=blocking-write (then COLD=0 START=6),
# ARMS="S A A S S A" DIR=on-ack, then WAVES=1 COLD=0 ARMS="S A S A" DIR=waves (WAVES and COLD reach seed-waves.sh);
# the two probe runs (ARMS="S A" DIR=probe) had timing probes added to on-ack.patch's build for them only. On the
# answer-writers build: WAVES=1 COLD=0 ARMS="S A P2 P2 A S" DIR=/tmp/aw-waves (../answer-writers.md).
cd "$(dirname "$0")/../../../../.." || exit 1
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
DIR=${DIR:-/tmp/cold-wave-arms}
mkdir -p "$DIR"
i=${START:-0}
for arm in ${ARMS:-S A A S S A}; do
  i=$((i+1))
  env=()
  case $arm in
    [0-9]*) env=(IOT_EXP_ACTIVE="$arm") ;;
    W) env=(IOT_EXP_ASYNC=1) ;;
    N*) env=(IOT_JAVA_OPTS="$BASE -XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=${arm#N}") ;;
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
