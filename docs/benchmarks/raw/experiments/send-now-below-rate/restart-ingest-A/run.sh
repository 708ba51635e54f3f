#!/usr/bin/env bash
# Ingest's restart case once with the rate bound off (A), in the same hour as the bound-on round (restarts-ingest.md).
cd "$(dirname "$0")/../../../../../.."
mkdir -p /tmp/rA
INGEST_KAFKA_SENDNOWBELOWRATE=0 DECODER_KAFKA_SENDNOWBELOWRATE=0 RUNS=1 SERVICES=ingest HOW=kill OUT=/tmp/rA/raw REPORT=/tmp/rA/restarts-ingest-A.md bench/restarts.sh > /tmp/rA.log 2>&1
