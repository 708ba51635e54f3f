#!/usr/bin/env bash
# At rest, interleaved: A = 40c5151 (worktree /tmp/wt-old), B = /work/main (fe04893's code). One fresh stack each.
one() { (cd "$1" && RUNS=1 OUT=/tmp/arab/$2 REPORT=/tmp/arab/$2.md bench/at-rest.sh > /tmp/arab/$2.log 2>&1); echo "$2 $(date +%T)" >> /tmp/arab/progress; }
one /tmp/wt-old A1; one /work/main B1; one /tmp/wt-old A2; one /work/main B2
echo all-done >> /tmp/arab/progress
