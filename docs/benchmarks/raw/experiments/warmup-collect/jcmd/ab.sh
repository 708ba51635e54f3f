#!/usr/bin/env bash
# Cold seed shape (Go generator, in-JVM) right after READY (B) or after one full collection of the stack JVM
# (G: jcmd PID GC.run at READY, what a collection before readiness would give); both with -Xlog:gc.
set -uo pipefail
cd /work/main
source bench/lib.sh
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
inner() {
  local stack t0 channel="gc-$RANDOM$RANDOM"
  stack=$(listener_pid "$IOT_INGEST_PORT")
  t0=$(date +%s%N)
  [ "$ARM" = G ] && jcmd "$stack" GC.run > /dev/null
  echo $(( ($(date +%s%N) - t0) / 1000000 )) > "$D/waited-ms"
  part_cpu > "$D/cpu.before"
  bench/postload/postload -closed -devices 500 -iterations 60 -interval 1s -preconnect=false \
    -url "$INGEST_URL" -key "$DEVICE_KEY" -channel "$channel" -device-prefix seed-go- -samples "$D/posts.txt" \
    -report "$D/postload.json" > "$D/postload.log" 2>&1
  part_cpu > "$D/cpu.after"
}
export -f inner
i=0
for arm in ${ARMS:-B G G B B G}; do
  i=$((i+1)); export D=/tmp/settle-ab/gc-$i-$arm ARM=$arm; mkdir -p "$D"
  echo "$(date +%T) run $i arm $arm"
  IOT_JAVA_OPTS="$BASE -Xlog:gc:file=$D/gc.log:time,uptime" bench_stack "$D/stack.log" inner > "$D/out.log" 2>&1
  ready=$(grep -o "started in [0-9.]* s" "$D/stack.log" | grep -o "[0-9.]*")
  sort -n "$D/posts.txt" | awk 'NR==1{t0=$1} {print $2; if ($1-t0<1000) print $2 > "'"$D"'/first"; else if ($1-t0>=10000) print $2 > "'"$D"'/after"}' | sort -n > "$D/all"
  p99=$(awk '{a[NR]=$1} END{print a[int(NR*0.99+0.999999)]}' "$D/all")
  p99a=$(sort -n "$D/after" | awk '{a[NR]=$1} END{print a[int(NR*0.99+0.999999)]}')
  slow=$(sort -n "$D/posts.txt" | awk 'NR==1{t0=$1} {s=($1-t0)/1000; if (s>=1 && s<10 && $2>50) n++} END{print n+0}')
  fw=$(sort -n "$D/first" | awk '{a[NR]=$1} END{printf "%.0f/%.0f/%.0f", a[int(NR*.1)], a[int(NR*.4)], a[int(NR*.5)]}')
  cpu=$(join <(sort "$D/cpu.before") <(sort "$D/cpu.after") | awk -v n=$(wc -l < "$D/all") '{s+=$4-$2; j+=$5-$3} END{printf "%.0f (jit %.0f)", s*1e6/n, j*1e6/n}')
  start=$(sort -n "$D/posts.txt" | head -1 | awk '{printf "%.3f", $1/1000}')
  pauses=$(awk -v s="$start" '/Pause/ {t=$1; gsub(/[\[\]]/,"",t); cmd="date -d " t " +%s.%N"; cmd | getline e; close(cmd); if (e+0 >= s-1 && e+0 < s+20) printf "%s@%.1fs ", $NF, e-s}' "$D/gc.log")
  echo "$i $arm READY ${ready}s gc-run $(cat "$D/waited-ms") ms | POST p99 $p99, after 10 s $p99a | >50 ms in s1-10: $slow | first wave p10/p40/p50 $fw | stack µs/POST $cpu | pauses in the first 20 s: $pauses" | tee -a /tmp/settle-ab/results-gc.txt
done
