#!/usr/bin/env bash
cd /work/main
/tmp/pgprobe.sh > /tmp/ab1/pgprobe-lr.out 2>&1
for v in L1 L2; do
  TOP=24 WARMUP=60s WARMUP_RATE=5000 WINDOWS=3 OUT=/tmp/ab1/tc-$v REPORT=/tmp/ab1/tc-$v.md bench/thread-cpu.sh > /tmp/ab1/tc-$v.log 2>&1
done
echo done > /tmp/ab1/LRDONE
