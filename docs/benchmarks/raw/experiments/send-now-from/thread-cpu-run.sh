#!/usr/bin/env bash
cd /work/main
for v in A2 C2; do
  case $v in
    A2) envs=(X=1) ;;
    C2) envs=(INGEST_KAFKA_SENDNOWFROM=32 DECODER_KAFKA_SENDNOWFROM=32) ;;
  esac
  env "${envs[@]}" TOP=24 WARMUP=60s WARMUP_RATE=5000 WINDOWS=3 OUT=/tmp/ab1/tc-$v REPORT=/tmp/ab1/tc-$v.md bench/thread-cpu.sh > /tmp/ab1/tc-$v.log 2>&1
done
echo done > /tmp/ab1/TCDONE
