#!/usr/bin/env bash
# CPU per uplink and the stored rate (bench/throughput.sh, one fresh stack a run: 5,000 single POSTs/s, then
# 1,000 batches of 100 a second) with the producers compressing with lz4 (L, the default) and snappy (S), through
# SPRING_KAFKA_PRODUCER_COMPRESSIONTYPE, L S in each round.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/compression-tp}
mkdir -p "$o"
for i in ${ROUNDS:-1 2}; do
  for arm in ${ARMS:-L S}; do
    case $arm in L) c=lz4 ;; S) c=snappy ;; N) c=none ;; esac
    SPRING_KAFKA_PRODUCER_COMPRESSIONTYPE=$c RUNS=1 OUT=$o/$arm$i REPORT=$o/throughput-$arm$i.md \
      bench/throughput.sh > "$o/$arm$i.log" 2>&1
  done
done
