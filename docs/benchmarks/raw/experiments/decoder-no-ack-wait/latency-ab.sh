#!/usr/bin/env bash
# Upper bound of a pipelined decoder: the cold and warm seed shape (bench/latency.sh, RUNS=1 a run, in-JVM) with
# the decoder waiting for its batch's writes before the next poll (W, the code) and not waiting (N:
# DECODER_EXPERIMENT_NO_ACK_WAIT=1, read by no-ack-wait.patch applied to UplinkListener; commits before the writes
# are acknowledged, so never a default), ARMS in each round. Reports: $O/latency-<arm><round>.md.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/noack-lat}
mkdir -p "$o"
for i in ${ROUNDS:-1 2}; do
  for arm in ${ARMS:-W N}; do
    flag=""; [ "$arm" = N ] && flag=1
    DECODER_EXPERIMENT_NO_ACK_WAIT=$flag RUNS=1 OUT=$o/$arm$i REPORT=$o/latency-$arm$i.md bench/latency.sh > "$o/$arm$i.log" 2>&1
  done
done
