#!/usr/bin/env bash
# ad hoc: the cold and warm seed shape in-JVM (bench/latency.sh, RUNS=1 a run) with the decoder waiting for each
# batch's writes (S: DECODER_KAFKA_BATCHESINFLIGHT=0) and the default (C: up to 4 batches in flight after a partial
# poll, none after a full one), ARMS in each round. Reports beside this script: latency-<arm><round>.md.
cd "$(dirname "$0")/../../../../.."
here=docs/benchmarks/raw/experiments/adaptive-pipelining
for i in ${ROUNDS:-1 2}; do
  for arm in ${ARMS:-S C}; do
    case $arm in S) n=0 ;; C) n=4 ;; esac
    DECODER_KAFKA_BATCHESINFLIGHT=$n RUNS=1 OUT=/tmp/adaptive-lat/$arm$i REPORT=$here/latency-$arm$i.md bench/latency.sh \
      > "/tmp/adaptive-lat-$arm$i.log" 2>&1
  done
done
