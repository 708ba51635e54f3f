#!/usr/bin/env bash
# Where the time goes (issue 17): JFR profiles of the embedded stack under load, read with the JDK's own tools.
# For each profile a fresh stack starts (./pipeline run via bench_stack, stack JVM options IOT_JAVA_OPTS, by
# default -Xmx2g plus a JFR stack depth of 256 frames), k6 warms it with the suite at smoke size, then JFR records
# the stack JVM (LocalStackMain: ingest, decoder, rules, notify) and the Kafka broker's JVM (kafka.Kafka, a child
# of the stack) with `jcmd JFR.start settings=profile` (plus jdk.CPUTimeSample, JDK 25's CPU-time sampler) for
# exactly the measured k6 run, and `jcmd JFR.stop` writes the recordings.
#   closed-loop  k6/run suite1-closed-loop             (500 closed-loop VUs, POST then sleep 1 s, 60 times)
#   peak         k6/run suite1-throughput $PEAK_EXTRA  (open loop, single POSTs near saturation: 1,500/s x 30 s;
#                peak-NAME the same into its own directory, e.g. PROFILES=peak-600 PEAK_EXTRA="-e DEVICES=600 ...")
# Raw recordings stay under $JFR_DIR (/tmp/iot-pipeline-jfr; too large for the repository); the text readings go
# to $OUT/<profile>/ (docs/benchmarks/profiles/): run.txt (command, times, uptime before/after), k6-report.md and,
# for the stack (top level) and the broker (broker/):
#   cpu-hot-methods.txt   jfr view hot-methods (jdk.ExecutionSample) and cpu-time-hot-methods (jdk.CPUTimeSample),
#                         thread-cpu-load and the JVM's CPU load (jdk.CPULoad)
#   cpu-breakdown.txt     bench/JfrFolded.java --by-package over jdk.ExecutionSample: share by component
#                         (Kafka client, Jackson, Tomcat, Spring Security, Micrometer, Rhino, JDBC, ...), package,
#                         service, thread; cpu-time-breakdown.txt the same over jdk.CPUTimeSample
#   cpu.folded(.gz), cpu.svg   collapsed stacks of jdk.ExecutionSample and a flame graph of them
#   wall-clock.txt        where threads wait: blocking events (jdk.ThreadPark, JavaMonitorWait/Enter, SocketRead,
#                         ThreadSleep over their thresholds) by duration, by component/thread; native samples
#   wall.folded(.gz), wall.svg  blocking time as collapsed stacks rooted at the thread, leaf = what it waited on
#                         (the SVG without the threads that wait for work: JfrFolded --exclude-idle)
#   gc.txt, allocation.txt, contention.txt   jfr view gc / gc-pauses / gc-cpu-time ..., allocation-by-*,
#                         contention-by-* (plus allocation by component from jdk.ObjectAllocationSample)
# Ports 38080-38083, Kafka 39092/39093, PostgreSQL 35433 unless IOT_*_PORT say otherwise.
# Knobs: PROFILES ("closed-loop peak"), CLOSED_EXTRA and PEAK_EXTRA (k6 options), WARM (k6 options of the warm-up
# run, --smoke), STACK_JAVA_OPTS (the stack JVM's options), BROKER (1: profile the broker too), OUT, JFR_DIR.
# Views only, from recordings already made: bench/profile.sh --views-only
set -euo pipefail
cd "$(dirname "$0")/.."
export IOT_INGEST_PORT=${IOT_INGEST_PORT:-38080} IOT_DECODER_PORT=${IOT_DECODER_PORT:-38081}
export IOT_RULES_PORT=${IOT_RULES_PORT:-38082} IOT_NOTIFY_PORT=${IOT_NOTIFY_PORT:-38083}
export IOT_KAFKA_PORT=${IOT_KAFKA_PORT:-39092} IOT_KAFKA_CONTROLLER_PORT=${IOT_KAFKA_CONTROLLER_PORT:-39093}
export IOT_POSTGRES_PORT=${IOT_POSTGRES_PORT:-35433}
source bench/lib.sh
export OUT=${OUT:-docs/benchmarks/profiles} JFR_DIR=${JFR_DIR:-/tmp/iot-pipeline-jfr}
export IOT_JAVA_OPTS=${STACK_JAVA_OPTS:--Xmx2g -XX:FlightRecorderOptions:stackdepth=256}
export CLOSED_EXTRA=${CLOSED_EXTRA:-} PEAK_EXTRA=${PEAK_EXTRA:--e DEVICES=1500 -e ITERATIONS=30}
export WARM=${WARM:---smoke} BROKER=${BROKER:-1}
PROFILES=${PROFILES:-closed-loop peak}
VIEWS_ONLY=0
[ "${1:-}" = --views-only ] && VIEWS_ONLY=1
# JFR settings of every recording: the JDK's profile template, and the CPU-time sampler (JDK 25, experimental).
JFR_SETTINGS="settings=profile jdk.CPUTimeSample#enabled=true jdk.CPUTimeSample#throttle=10ms"
export JFR_SETTINGS

# Runs under the stack (bench_stack): warm-up, then the measured run with JFR on the stack and the broker.
# $1 profile name, $2 k6 suite, $3 k6 options of the measured run.
record() {
  local name=$1 suite=$2 extra=$3 raw=$JFR_DIR/$1 dir=$OUT/$1 stack broker rc=0
  stack=$PPID
  grep -q LocalStackMain "/proc/$stack/cmdline" 2>/dev/null || stack=$(listener_pid "$IOT_INGEST_PORT")
  broker=$(listener_pid "$IOT_KAFKA_PORT")
  tr '\0' ' ' < "/proc/$stack/cmdline" | grep -q LocalStackMain || { echo "no LocalStackMain at pid $stack" >&2; exit 1; }
  echo "stack pid $stack, broker pid ${broker:-none}" >&2
  {
    echo "stack JVM: pid $stack, options: $IOT_JAVA_OPTS"
    echo "broker JVM: pid ${broker:-none} ($(tr '\0' ' ' < "/proc/$broker/cmdline" 2>/dev/null | grep -o -- '-Xm[sx][^ ]*' | tr '\n' ' '))"
    echo "warm-up: k6/run $suite $WARM  (started $(date -u +%H:%M:%SZ))"
  } >> "$dir/run.txt"
  # shellcheck disable=SC2086
  RUN_DIR=$raw/warm k6/run "$suite" $WARM > "$raw/warm.log" 2>&1 || echo "warm-up k6 exit $?" >> "$dir/run.txt"
  echo "uptime before the measured run: $(uptime)" >> "$dir/run.txt"
  # shellcheck disable=SC2086
  jcmd "$stack" JFR.start name=profile $JFR_SETTINGS filename="$raw/stack.jfr" > "$raw/jcmd.log" 2>&1
  if [ "$BROKER" = 1 ] && [ -n "$broker" ]; then
    # shellcheck disable=SC2086
    jcmd "$broker" JFR.start name=profile $JFR_SETTINGS filename="$raw/broker.jfr" >> "$raw/jcmd.log" 2>&1 \
      || echo "broker: JFR.start failed (see $raw/jcmd.log)" >> "$dir/run.txt"
  fi
  echo "measured: k6/run $suite $extra  (started $(date -u +%H:%M:%SZ))" >> "$dir/run.txt"
  # shellcheck disable=SC2086
  RUN_DIR=$raw/k6 k6/run "$suite" $extra > "$raw/k6.log" 2>&1 || rc=$?
  jcmd "$stack" JFR.stop name=profile >> "$raw/jcmd.log" 2>&1
  if [ "$BROKER" = 1 ] && [ -n "$broker" ]; then jcmd "$broker" JFR.stop name=profile >> "$raw/jcmd.log" 2>&1 || true; fi
  {
    echo "measured run ended $(date -u +%H:%M:%SZ), k6 exit code $rc (99 = a threshold failed)"
    echo "uptime after the measured run: $(uptime)"
  } >> "$dir/run.txt"
  cp "$raw/k6/$suite-report.md" "$dir/k6-report.md" 2>/dev/null || true
}

# gzip a file over 1 MB (the repository keeps the folded stacks; flame graph tools read them unzipped).
squeeze() {
  if [ "$(stat -c %s "$1")" -gt 1000000 ]; then gzip -9f "$1"; else rm -f "$1.gz"; fi
}

# views REC.jfr DIR TITLE: the text readings of one recording.
views() {
  local jfr=$1 dir=$2 title=$3 v
  local fold=(java bench/JfrFolded.java)
  local blocking=jdk.ThreadPark,jdk.JavaMonitorWait,jdk.JavaMonitorEnter,jdk.SocketRead,jdk.ThreadSleep
  mkdir -p "$dir"
  {
    echo "# $title: CPU. jfr view hot-methods = jdk.ExecutionSample (threads running Java code, every 10 ms);"
    echo "# cpu-time-hot-methods = jdk.CPUTimeSample (one sample per 10 ms of a thread's CPU time, native code too)."
    "${fold[@]}" --cpu-load "$jfr"
    echo
    for v in hot-methods cpu-time-hot-methods thread-cpu-load; do jfr view --width 160 --cell-height 1 "$v" "$jfr"; echo; done
  } > "$dir/cpu-hot-methods.txt" 2>&1
  {
    "${fold[@]}" --by-package "$jfr"
    echo "## The HTTP request threads only (tomcat-handler-N, http-nio-PORT-exec-N): what a request costs besides its service"
    echo
    "${fold[@]}" --by-package --threads 'tomcat-handler-N|http-nio-[0-9]+-exec-N' "$jfr" | sed '/^By thread/,/^$/d'
  } > "$dir/cpu-breakdown.txt"
  "${fold[@]}" --by-package --events jdk.CPUTimeSample "$jfr" > "$dir/cpu-time-breakdown.txt"
  "${fold[@]}" "$jfr" > "$dir/cpu.folded"
  "${fold[@]}" --svg "$title: CPU (jdk.ExecutionSample)" "$jfr" > "$dir/cpu.svg"
  {
    echo "# $title: wall clock, where threads wait. JFR has no wall-clock sampler: these are the blocking events"
    echo "# over the profile template's thresholds (ThreadPark, JavaMonitorWait/Enter 10 ms, SocketRead 1 ms),"
    echo "# weighted by their duration in ms (N threads waiting 1 s = N s), and the native-method samples"
    echo "# (jdk.NativeMethodSample: one thread in native code every 20 ms, e.g. epoll_wait, socket reads)."
    echo
    echo "## Blocking events without the threads that wait for work (--exclude-idle: pool threads in getTask or"
    echo "## awaitWork, Tomcat's TaskQueue.take, StandardServer.await, consumer heartbeat threads, ...)"
    echo
    "${fold[@]}" --by-package --events "$blocking" --weight duration --exclude-idle "$jfr"
    echo "## All blocking events, idle threads included"
    echo
    "${fold[@]}" --by-package --events "$blocking" --weight duration "$jfr"
    echo "## Native-method samples: JFR takes them round-robin over the threads in native code, so equal counts per"
    echo "## thread mean 'in native (epoll_wait, socket read) all the time', not a share of the wall clock"
    echo
    "${fold[@]}" --by-package --events jdk.NativeMethodSample "$jfr" | sed -n '1,2p;/^By thread/,/^$/p'

    for v in latencies-by-type native-methods socket-reads-by-host; do jfr view --width 160 --cell-height 1 "$v" "$jfr"; echo; done
  } > "$dir/wall-clock.txt" 2>&1
  "${fold[@]}" --events "$blocking" --weight duration --thread-root --event-leaf "$jfr" > "$dir/wall.folded"
  "${fold[@]}" --events "$blocking" --weight duration --thread-root --event-leaf --exclude-idle \
    --svg "$title: blocked time by thread, idle pool threads left out (ThreadPark, MonitorWait/Enter, SocketRead, Sleep; ms)" \
    "$jfr" > "$dir/wall.svg"
  {
    echo "# $title: garbage collection"
    for v in gc-configuration heap-configuration gc gc-pauses gc-cpu-time gc-pause-phases; do
      jfr view --width 160 --cell-height 1 "$v" "$jfr"; echo
    done
  } > "$dir/gc.txt" 2>&1
  {
    echo "# $title: allocation (jdk.ObjectAllocationSample, weighted by the bytes each sample stands for)"
    echo
    "${fold[@]}" --by-package --events jdk.ObjectAllocationSample --weight weight "$jfr"
    for v in allocation-by-class allocation-by-site allocation-by-thread; do jfr view --width 160 --cell-height 1 "$v" "$jfr"; echo; done
  } > "$dir/allocation.txt" 2>&1
  {
    echo "# $title: lock contention (jdk.JavaMonitorEnter over 10 ms; parking on j.u.c locks is in wall-clock.txt)"
    echo
    for v in contention-by-site contention-by-class contention-by-thread contention-by-address pinned-threads; do
      jfr view --width 160 --cell-height 1 "$v" "$jfr"; echo
    done
    echo "## Parking and monitor waits (jdk.ThreadPark, jdk.JavaMonitorEnter/Wait over 10 ms) by what they waited on, ms"
    echo
    "${fold[@]}" --by-package --events jdk.ThreadPark,jdk.JavaMonitorEnter,jdk.JavaMonitorWait --weight duration "$jfr" \
      | sed -n -e '1,2p' -e '/^By event/,/^$/p' -e '/^Top non-JDK methods/,$p'
  } > "$dir/contention.txt" 2>&1
  squeeze "$dir/cpu.folded"
  squeeze "$dir/wall.folded"
}

for name in $PROFILES; do
  case "$name" in
    closed-loop) suite=suite1-closed-loop extra=$CLOSED_EXTRA ;;
    peak*) suite=suite1-throughput extra=$PEAK_EXTRA ;; # peak, or peak-NAME for a second rate
    *) echo "unknown profile $name (closed-loop, peak, peak-NAME)" >&2; exit 2 ;;
  esac
  if [ "$VIEWS_ONLY" = 0 ]; then
    rm -rf "${JFR_DIR:?}/$name" "${OUT:?}/$name"
    mkdir -p "$JFR_DIR/$name" "$OUT/$name"
    {
      echo "profile $name: bench/profile.sh (PROFILES=$name), commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
      echo "machine: $(nproc) cores, $(awk '/^MemTotal/ {printf "%.0f GB RAM", $2 / 1048576}' /proc/meminfo), $(java -version 2>&1 | head -1)"
      echo "uptime before the stack started: $(uptime)"
    } > "$OUT/$name/run.txt"
    echo "profile $name: k6/run $suite $extra" >&2
    bench_stack "$JFR_DIR/$name/stack.log" record "$name" "$suite" "$extra" || echo "profile $name: exit $?" >&2
    rm -rf "${IOT_DATA_DIR:?}"
  fi
  [ -f "$JFR_DIR/$name/stack.jfr" ] || { echo "profile $name: no recording ($JFR_DIR/$name/stack.jfr)" >&2; continue; }
  echo "profile $name: views" >&2
  views "$JFR_DIR/$name/stack.jfr" "$OUT/$name" "$name, stack JVM"
  if [ -f "$JFR_DIR/$name/broker.jfr" ]; then views "$JFR_DIR/$name/broker.jfr" "$OUT/$name/broker" "$name, Kafka broker JVM"; fi
done
ls -la "$OUT"/*
