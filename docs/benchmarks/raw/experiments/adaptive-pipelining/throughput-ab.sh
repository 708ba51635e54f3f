#!/usr/bin/env bash
# ad hoc: bench/throughput.sh once per arm on one build; A = the decoder waiting for each batch's writes
# (DECODER_KAFKA_BATCHESINFLIGHT=0), C = the default (4 in flight after a partial poll, none after a full one).
# Run as: throughput-ab.sh C1 A1 C2 A2 C3
cd "$(dirname "$0")/../../../../.."
for n in "$@"; do
  case $n in A*) env=DECODER_KAFKA_BATCHESINFLIGHT=0 ;; *) env=DECODER_KAFKA_BATCHESINFLIGHT=4 ;; esac
  env $env RUNS=1 OUT=/tmp/tp-$n REPORT=docs/benchmarks/raw/experiments/adaptive-pipelining/throughput-$n.md \
    bench/throughput.sh > /tmp/tp-$n.log 2>&1
done
