#!/usr/bin/env bash
# A = 40c5151 (worktree /tmp/wt-old), B = main working tree (minted ids + history json). Interleaved.
cd /tmp/ab15
one() { # dir label shape
  local dir=$1 label=$2 shape=$3
  if [ "$shape" = batched ]; then
    (cd "$dir" && RATE=200 BATCH=100 WARMUP=60s WARMUP_RATE=200 WINDOWS=3 WINDOW=20s OUT=/tmp/ab15/$label REPORT=/tmp/ab15/$label.md bench/thread-cpu.sh > /tmp/ab15/$label.log 2>&1)
  else
    (cd "$dir" && TOP=24 WARMUP=60s WARMUP_RATE=5000 WINDOWS=3 OUT=/tmp/ab15/$label REPORT=/tmp/ab15/$label.md bench/thread-cpu.sh > /tmp/ab15/$label.log 2>&1)
  fi
  echo "$label done $(date +%T)" >> /tmp/ab15/progress
}
one /tmp/wt-old A1-batched batched
one /work/main B1-batched batched
one /tmp/wt-old A2-batched batched
one /work/main B2-batched batched
one /tmp/wt-old A1-single single
one /work/main B1-single single
echo all-done >> /tmp/ab15/progress
