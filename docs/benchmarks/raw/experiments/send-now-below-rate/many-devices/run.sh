#!/usr/bin/env bash
# k6 many-devices at full size, A (send-now-below-rate 0: by count only) B (the default 2,000/s) A B, fresh stack each.
cd "$(dirname "$0")/../../../../../.."
A="INGEST_KAFKA_SENDNOWBELOWRATE=0 DECODER_KAFKA_SENDNOWBELOWRATE=0"
mkdir -p /tmp/md
for i in 1 2; do
  env $A DOCS=/tmp/md/A$i bench/k6-full.sh many-devices > /tmp/md/A$i.log 2>&1
  DOCS=/tmp/md/B$i bench/k6-full.sh many-devices > /tmp/md/B$i.log 2>&1
done
