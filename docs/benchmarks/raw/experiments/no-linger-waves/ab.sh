#!/usr/bin/env bash
# Seed shape in-JVM, default lingers (A) against no linger in ingest's and the decoder's producers (B), RUNS=1 each, A B A B.
cd /work/main
for i in 1 2; do
  RUNS=1 OUT=/tmp/lab/A$i REPORT=/tmp/lab/A$i.md bench/latency.sh > /tmp/lab/A$i.log 2>&1
  INGEST_KAFKA_SENDNOWFROM=1 DECODER_KAFKA_SENDNOWFROM=1 RUNS=1 OUT=/tmp/lab/B$i REPORT=/tmp/lab/B$i.md bench/latency.sh > /tmp/lab/B$i.log 2>&1
done
