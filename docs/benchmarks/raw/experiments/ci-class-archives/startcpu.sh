#!/usr/bin/env bash
# usage: startcpu.sh LABEL [pipeline run args...]; env passes through (the tests' JVM options, IOT_AOT=off,
# IOT_WARMUP_ENABLED=false in ci-class-archives.md). Prints seconds to READY and CPU seconds of the stack's processes
# (launcher, broker, PostgreSQL, services) at READY, then stops the stack.
label=$1; shift
cd "$(dirname "$0")/../../../../.."
data=$(mktemp -d /tmp/startcpu.XXXXXX)
log=/tmp/startcpu-$label.log
t0=$(date +%s.%N)
IOT_DATA_DIR=$data setsid ./pipeline run --no-build "$@" > $log 2>&1 &
pid=$!
for i in $(seq 1 600); do grep -q "READY" $log && break; sleep 0.2; done
t1=$(date +%s.%N)
sleep 1
tree() { local p=$1; echo $p; for c in $(cat /proc/$p/task/*/children 2>/dev/null); do tree $c; done; }
pids=$(tree $pid)
# PostgreSQL is not the launcher's child (pg_ctl starts it): its processes name the data directory.
pids="$pids $(pgrep -f "$data")"
tot=0
for p in $(echo $pids | tr ' ' '\n' | sort -u); do
  [ -r /proc/$p/stat ] || continue
  s=$(awk '{print $14+$15+$16+$17}' /proc/$p/stat)
  tot=$((tot + s))
done
printf "%s ready_s=%.1f cpu_s=%.1f\n" $label $(echo "$t1 - $t0" | bc) $(echo "$tot / 100" | bc -l)
# Only this script's stack (its session, from setsid): a graceful stop, then whatever is left after 30 s.
pkill -TERM -s $pid -f LocalStackMain
for i in $(seq 1 60); do pgrep -s $pid > /dev/null || break; sleep 0.5; done
pkill -KILL -s $pid 2>/dev/null
rm -rf $data
