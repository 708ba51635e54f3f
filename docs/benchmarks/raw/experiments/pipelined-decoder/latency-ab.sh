#!/usr/bin/env bash
# The cold and warm seed shape in-JVM (bench/latency.sh, RUNS=1 a run) with the decoder waiting for each batch's
# writes before the next poll (S: DECODER_KAFKA_BATCHESINFLIGHT=0, what the code did before) and polling on with up
# to 4 batches in flight (P: the default), ARMS in each round. Reports: $O/latency-<arm><round>.md.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/pipelined-lat}
mkdir -p "$o"
for i in ${ROUNDS:-1 2}; do
  for arm in ${ARMS:-S P}; do
    case $arm in S) n=0 ;; P) n=4 ;; esac
    DECODER_KAFKA_BATCHESINFLIGHT=$n RUNS=1 OUT=$o/$arm$i REPORT=$o/latency-$arm$i.md bench/latency.sh > "$o/$arm$i.log" 2>&1
  done
done
