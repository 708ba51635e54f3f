#!/usr/bin/env bash
cd /work/main
for v in A B C; do
  case $v in
    A) envs=() ;;
    B) envs=(SPRING_KAFKA_PRODUCER_PROPERTIES_LINGER_MS=0) ;;
    C) envs=(INGEST_KAFKA_SENDNOWFROM=32 DECODER_KAFKA_SENDNOWFROM=32) ;;
  esac
  env "${envs[@]}" DOCS=/tmp/ab1/$v RUN_ONLY=1 bench/k6-full.sh suite1-throughput > /tmp/ab1/$v.log 2>&1
done
echo done > /tmp/ab1/DONE
