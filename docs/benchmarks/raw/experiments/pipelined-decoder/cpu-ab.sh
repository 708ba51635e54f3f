#!/usr/bin/env bash
# CPU per uplink by process (bench/cpu-per-uplink.sh, --processes, open loop at 500 single POSTs/s, then batches)
# with the decoder waiting for each batch's writes (S: DECODER_KAFKA_BATCHESINFLIGHT=0) and polling on (P: 4),
# ARMS in each round. Reports: $O/cpu-<arm><round>.md.
cd "$(dirname "$0")/../../../../.."
o=${O:-/tmp/pipelined-cpu}
mkdir -p "$o"
for i in ${ROUNDS:-1}; do
  for arm in ${ARMS:-S P}; do
    case $arm in S) n=0 ;; P) n=4 ;; esac
    DECODER_KAFKA_BATCHESINFLIGHT=$n RUNS=1 OUT=$o/$arm$i REPORT=$o/cpu-$arm$i.md bench/cpu-per-uplink.sh > "$o/$arm$i.log" 2>&1
  done
done
