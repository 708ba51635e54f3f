#!/usr/bin/env bash
# Cold seed shape (Go generator, in-JVM) in alternated arms, one fresh stack a run:
#   B   right after READY, as shipped;           S  after the stack JVM's compilers went quiet (what a settle
#   CS  S with two C2 compiler threads            before READY would give: at most 20 ms of their CPU in a 200 ms
#       (-XX:CICompilerCount=3);                  window, at most 8 s);
#   V   as B (the control of P);                 P  ingest's requests on platform threads
#                                                    (SPRING_THREADS_VIRTUAL_ENABLED=false).
# ARMS sets the order (the runs here: "B S CS CS S B B CS S", "V P P V V P", and "S" with JITLOG=1, which logs the
# stack JVM's compilations to /tmp/settle-ab/jit.log); PREFIX names the run directories, RESULTS the summary file.
set -uo pipefail
cd /work/main
source bench/lib.sh
BASE="-Xms1g -Xmx2g -XX:+UseParallelGC -XX:SweeperThreshold=50 -XX:MetaspaceSize=128m -XX:InlineSmallCode=1000"
[ "${JITLOG:-}" = 1 ] && BASE="$BASE -Xlog:jit+compilation=debug:file=/tmp/settle-ab/jit.log:time,uptime"
RESULTS=${RESULTS:-/tmp/settle-ab/results.txt}
jit_ticks() { cat /proc/$1/task/*/stat 2>/dev/null | awk '{comm=$0; sub(/^[^(]*\(/,"",comm); sub(/\) [^)]*$/,"",comm); rest=$0; sub(/^.*\) /,"",rest); split(rest,f," "); if (comm ~ /^C[12] CompilerThre/) t+=f[12]+f[13]} END{print t+0}'; }
inner() {
  local stack t0 prev now channel="settle-$RANDOM$RANDOM"
  stack=$(listener_pid "$IOT_INGEST_PORT")
  t0=$(date +%s%N)
  if [ "$WAIT" = 1 ]; then
    prev=$(jit_ticks "$stack")
    while [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 8000 ]; do
      sleep 0.2; now=$(jit_ticks "$stack")
      [ $((now - prev)) -le 2 ] && break
      prev=$now
    done
  fi
  echo $(( ($(date +%s%N) - t0) / 1000000 )) > "$D/waited-ms"
  part_cpu > "$D/cpu.before"
  bench/postload/postload -closed -devices 500 -iterations 60 -interval 1s -preconnect=false \
    -url "$INGEST_URL" -key "$DEVICE_KEY" -channel "$channel" -device-prefix seed-go- -samples "$D/posts.txt" \
    -report "$D/postload.json" > "$D/postload.log" 2>&1
  part_cpu > "$D/cpu.after"
}
export -f inner jit_ticks
i=0
for arm in ${ARMS:-B S CS CS S B B CS S}; do
  i=$((i+1)); export D=/tmp/settle-ab/${PREFIX:-}$i-$arm; mkdir -p "$D"
  opts=$BASE; export WAIT=0; unset SPRING_THREADS_VIRTUAL_ENABLED
  case $arm in
    S) WAIT=1 ;;
    CS) WAIT=1; opts="$BASE -XX:CICompilerCount=3" ;;
    P) export SPRING_THREADS_VIRTUAL_ENABLED=false ;;
  esac
  echo "$(date +%T) run $i arm $arm"
  IOT_JAVA_OPTS="$opts" bench_stack "$D/stack.log" inner > "$D/out.log" 2>&1
  ready=$(grep -o "started in [0-9.]* s" "$D/stack.log" | grep -o "[0-9.]*")
  sort -n "$D/posts.txt" | awk 'NR==1{t0=$1} {print $2 > "/dev/stdout"; if ($1-t0<1000) print $2 > "'"$D"'/first"}' | sort -n > "$D/all"
  p99=$(awk '{a[NR]=$1} END{print a[int(NR*0.99+0.999999)]}' "$D/all")
  fw=$(sort -n "$D/first" | awk '{a[NR]=$1} END{printf "%.0f/%.0f/%.0f", a[int(NR*.1)], a[int(NR*.4)], a[int(NR*.5)]}')
  cpu=$(join <(sort "$D/cpu.before") <(sort "$D/cpu.after") | awk -v n=$(wc -l < "$D/all") '{s+=$4-$2; j+=$5-$3} END{printf "%.0f (jit %.0f)", s*1e6/n, j*1e6/n}')
  echo "$i $arm READY ${ready}s waited $(cat "$D/waited-ms") ms | POST p99 $p99 | first wave p10/p40/p50 $fw | stack µs/POST $cpu" | tee -a "$RESULTS"
done
