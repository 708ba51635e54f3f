#!/usr/bin/env bash
cd /work/main
RUNS=1 OUT=/tmp/lab/tpA REPORT=/tmp/lab/tpA.md bench/throughput.sh > /tmp/lab/tpA.log 2>&1
INGEST_KAFKA_SENDNOWFROM=1 DECODER_KAFKA_SENDNOWFROM=1 RUNS=1 OUT=/tmp/lab/tpB REPORT=/tmp/lab/tpB.md bench/throughput.sh > /tmp/lab/tpB.log 2>&1
