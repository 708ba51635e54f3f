#!/usr/bin/env bash
cd /work/main

INGEST_KAFKA_SENDNOWBELOWRATE=0 DECODER_KAFKA_SENDNOWBELOWRATE=0 RUNS=1 SERVICES=ingest HOW=kill OUT=/tmp/rA/raw REPORT=/tmp/rA/restarts-ingest-A.md bench/restarts.sh > /tmp/rA.log 2>&1

