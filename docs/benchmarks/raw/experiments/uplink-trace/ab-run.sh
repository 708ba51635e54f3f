#!/usr/bin/env bash
# A = HEAD 95bf043 (worktree /tmp/wt-old), B = main working tree (the uplink's own unsampled trace: no traceparent). Interleaved.
cd /tmp/ab16
one() { # dir label shape
  local dir=$1 label=$2 shape=$3
  if [ "$shape" = batched ]; then
    (cd "$dir" && RATE=200 BATCH=100 WARMUP=60s WARMUP_RATE=200 WINDOWS=3 WINDOW=20s OUT=/tmp/ab16/$label REPORT=/tmp/ab16/$label.md bench/thread-cpu.sh > /tmp/ab16/$label.log 2>&1)
  else
    (cd "$dir" && TOP=24 WARMUP=60s WARMUP_RATE=5000 WINDOWS=3 OUT=/tmp/ab16/$label REPORT=/tmp/ab16/$label.md bench/thread-cpu.sh > /tmp/ab16/$label.log 2>&1)
  fi
  echo "$label done $(date +%T)" >> /tmp/ab16/progress
}
one /tmp/wt-old A1-batched batched
one /work/main B1-batched batched
one /tmp/wt-old A2-batched batched
one /work/main B2-batched batched
one /tmp/wt-old A1-single single
one /work/main B1-single single
echo all-done >> /tmp/ab16/progress
#!/usr/bin/env bash
cd /tmp/ab16
source <(sed -n '/^one()/,/^}/p' /tmp/ab16/run.sh)
one /work/main B2-single single
one /tmp/wt-old A2-single single
echo all-done-2 >> /tmp/ab16/progress
