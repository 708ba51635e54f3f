#!/usr/bin/env bash
# k6 capacity at the old steady rate (1,000/s), one ramp and one steady + stressed pair per arm: A (send-now-below-rate
# 0, by count only) then B (2,000/s), one build, a fresh stack each.
cd "$(dirname "$0")/../../../../../.."
A="INGEST_KAFKA_SENDNOWBELOWRATE=0 DECODER_KAFKA_SENDNOWBELOWRATE=0"
mkdir -p /tmp/cap
env $A REPEATS=1 RATE50=1000 DOCS=/tmp/cap/A bench/k6-full.sh capacity > /tmp/cap/A.log 2>&1
REPEATS=1 RATE50=1000 DOCS=/tmp/cap/B bench/k6-full.sh capacity > /tmp/cap/B.log 2>&1
