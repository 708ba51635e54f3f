#!/usr/bin/env bash
# The cold and warm seed shape (bench/latency.sh, one fresh stack a run) with k6's WebSocket subscriber as the
# repository has it (K: JSON.parse of every message, a counter sample per data unit) and lean (L: the data unit's id
# and receivedAt read out of the message's text, the count added once: lean-reader.patch beside this script, applied
# to k6/lib/ for L's runs and reverted after each), ARMS in each round. Reports: $O/latency-<arm><round>.md.
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../../.."
o=${O:-/tmp/k6-lean-lat}
mkdir -p "$o"
for i in ${ROUNDS:-1 2 3}; do
  for arm in ${ARMS:-K L}; do
    [ "$arm" = L ] && git apply "$here/lean-reader.patch"
    RUNS=1 OUT=$o/$arm$i REPORT=$o/latency-$arm$i.md bench/latency.sh > "$o/$arm$i.log" 2>&1
    [ "$arm" = L ] && git apply -R "$here/lean-reader.patch"
  done
done
