# Shared by the bench scripts: JDK and k6 selection, and throwaway embedded stacks (bench_stack) on ports
# 28080-28083 (Kafka 29092, PostgreSQL 25433; each overridable with IOT_*_PORT). Source it from the repository root.
eval "$(./pipeline env)"
export IOT_INGEST_PORT=${IOT_INGEST_PORT:-28080} IOT_DECODER_PORT=${IOT_DECODER_PORT:-28081}
export IOT_RULES_PORT=${IOT_RULES_PORT:-28082} IOT_NOTIFY_PORT=${IOT_NOTIFY_PORT:-28083}
export IOT_KAFKA_PORT=${IOT_KAFKA_PORT:-29092} IOT_KAFKA_CONTROLLER_PORT=${IOT_KAFKA_CONTROLLER_PORT:-29093}
export IOT_POSTGRES_PORT=${IOT_POSTGRES_PORT:-25433}
BENCH_STACK=""
# A script that exits (or is interrupted) while a stack runs stops it: the launcher then stops its command too.
trap '[ -z "$BENCH_STACK" ] || kill -TERM "$BENCH_STACK" 2>/dev/null || true' EXIT

# bench_stack LOG COMMAND [ARGS...]: runs COMMAND, a program or a function of the calling script, against a fresh
# throwaway stack on fresh data (IOT_DATA_DIR under /tmp, deleted once the stack stopped unless KEEP_DATA=1: a
# batched run leaves 4-5 GB, and a few runs filled the disk; the environment decides what runs; BENCH_DATA_DIR names
# a data directory to use and keep instead, for a stack started again on the data of the one before). The Java
# launcher (./pipeline run --then; with BENCH_PROCESSES=1, --processes) starts the stack with its output in LOG,
# waits for it (at most IOT_START_TIMEOUT s, 300), runs COMMAND with INGEST_URL, DECODER_URL, RULES_URL, NOTIFY_URL,
# WS_URL and the credentials in its environment, stops the stack and returns COMMAND's exit code. A function runs
# in a bash of its own (set -euo pipefail): what it reads from the script must be exported; the function itself is
# exported here.
bench_stack() {
  local log=$1 rc=0
  shift
  if [ "$(type -t "$1")" = function ]; then
    export -f "${1?}"
    set -- bash -euo pipefail -c '"$@"' bench-stack "$@"
  fi
  export IOT_DATA_DIR; IOT_DATA_DIR=${BENCH_DATA_DIR:-$(mktemp -d /tmp/iot-pipeline-bench.XXXXXX)}
  ./pipeline run --no-build ${BENCH_PROCESSES:+--processes} --log "$log" --then "$@" &
  BENCH_STACK=$!
  wait "$BENCH_STACK" || rc=$?
  BENCH_STACK=""
  [ "${KEEP_DATA:-}" = 1 ] || [ -n "${BENCH_DATA_DIR:-}" ] || rm -rf "$IOT_DATA_DIR"
  return "$rc"
}

# Helpers for functions that run under a stack (bench_stack), exported with it: the time, and what notify's history
# holds. DRAIN_TIMEOUT (s) bounds wait_stored.
now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }

# stored_count [CHANNEL]: data units of CHANNEL (demo) stored so far by notify's history writer, exact
# (GET /data-units/count; its cost grows with the rows).
stored_count() {
  curl -sf -H "Authorization: Bearer $DASHBOARD_TOKEN" "$NOTIFY_URL/data-units/count?channel=${1:-demo}" \
    | sed -n 's/.*"count":\([0-9]*\).*/\1/p'
}

# The same from notify's meters (the ingest-to-postgresql hop is timed once per row committed): a scrape costs
# notify far less than an exact count over millions of rows, so it is what the drain wait polls; a batch that is
# stored again after a retry counts twice here, which is why the exact count has the last word.
stored_meter() {
  { curl -sf "$NOTIFY_URL/actuator/prometheus" || true; } \
    | awk '/^pipeline_hop_latency_seconds_count\{.*hop="ingest-to-postgresql"/ {n += $NF} END {printf "%d\n", n}'
}

# wait_stored BEFORE METER_BEFORE ACCEPTED: waits until the history holds BEFORE + ACCEPTED data units or
# DRAIN_TIMEOUT s have passed since the phase ended (now), polling the meter every 0.1 s for 2 s, then every 0.5 s,
# and the exact count when the meter says done and every 5 s besides; prints "stored drainSeconds drained", the
# drain time being when the poll that found them all began (so at most the poll interval late).
wait_stored() {
  local before=$1 meter_goal=$(($2 + $3)) accepted=$3 start deadline next_count t count meter
  start=$(now_us); deadline=$((start + DRAIN_TIMEOUT * 1000000)); next_count=$start
  while :; do
    t=$(now_us)
    meter=$(stored_meter)
    if [ "$meter" -ge "$meter_goal" ] || [ "$t" -ge "$next_count" ] || [ "$t" -ge "$deadline" ]; then
      count=$(stored_count || echo "$before")
      next_count=$((t + 5000000))
      if [ "$((count - before))" -ge "$accepted" ]; then
        echo "$((count - before)) $(awk -v d=$((t - start)) 'BEGIN {printf "%.2f", d / 1e6}') true"
        return
      fi
      if [ "$t" -ge "$deadline" ]; then
        echo "$((count - before)) $DRAIN_TIMEOUT false"
        return
      fi
    fi
    # Finely while a phase's last uplinks are still on their way (tens of ms when the stack keeps up), then
    # coarsely: a scrape costs notify CPU that a long drain should not pay ten times a second.
    if [ $((t - start)) -lt 2000000 ]; then sleep 0.1; else sleep 0.5; fi
  done
}

# listener_pid PORT: the pid of the process listening on TCP port PORT (the stack JVM or a service process owns the
# HTTP ports, the broker Kafka's).
listener_pid() {
  ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
}

# part_cpu: "part seconds jit-seconds" for every part of a stack under bench_stack, each process counted with its
# descendants (and the children that exited, through cutime/cstime) unless they are a part of their own: the
# services, the broker and PostgreSQL by the port they listen on, the launcher (the JVM that started them) as the
# rest; the caller's own children (a load generator) are not counted. Parts that are one process (in-JVM: the
# services in the launcher) are one part, named with "+". jit-seconds: the part's JVM's compiler threads (Linux
# names HotSpot's "C1/C2 CompilerThre"), 0 for PostgreSQL. Sorted by part.
part_cpu() {
  local pg listeners="" part pid jits=""
  pg=$(head -1 "$(find "$IOT_DATA_DIR" -name postmaster.pid | head -1)")
  for part in ingest:$IOT_INGEST_PORT decoder:$IOT_DECODER_PORT rules:$IOT_RULES_PORT notify:$IOT_NOTIFY_PORT \
      broker:$IOT_KAFKA_PORT; do
    listeners+=" ${part%%:*}=$(listener_pid "${part#*:}")"
  done
  for pid in $(echo "$listeners launcher=$PPID" | grep -o '=[0-9]*' | tr -d = | sort -u); do
    jits+=" $pid=$({ cat /proc/"$pid"/task/*/stat 2>/dev/null || true; } | awk '
      { comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\) [^)]*$/, "", comm)
        rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
        if (comm ~ /^C[12] CompilerThre/) t += f[12] + f[13] }
      END { printf "%d", t }')"
  done
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } \
    | awk -v roots="$listeners postgresql=$pg launcher=$PPID" -v jits="$jits" -v self=$$ -v hz="$(getconf CLK_TCK)" '
    { rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " "); parent[$1] = f[2]; ticks[$1] = f[12] + f[13] + f[14] + f[15] }
    END {
      n = split(jits, j, " ")
      for (i = 1; i <= n; i++) { split(j[i], kv, "="); jitOf[kv[1]] = kv[2] }
      n = split(roots, r, " ")
      for (i = 1; i <= n; i++) {
        split(r[i], kv, "=")
        if (kv[2] == "") continue
        named = (kv[2] in part) ? part[kv[2]] "+" kv[1] : kv[1]
        part[kv[2]] = named
      }
      for (p in ticks) {
        for (q = p; q + 0 > 1 && !(q in part) && q != self; q = parent[q]) {}
        if ((q in part) && q != self) total[part[q]] += ticks[p]
      }
      for (q in part) printf "%s %.2f %.2f\n", part[q], total[part[q]] / hz, jitOf[q] / hz
    }' | sort
}

export -f now_us stored_count stored_meter wait_stored listener_pid part_cpu

# bench_classpath MODULE: builds MODULE (and what it needs) and prints the classpath of its test classes, for
# the benchmark mains that live there.
bench_classpath() {
  ./mvnw -B -q -pl "$1" -am install -DskipTests >&2
  ./mvnw -B -q -pl "$1" dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench-classpath.txt >&2
  echo "$1/target/test-classes:$1/target/classes:$(cat "$1/target/bench-classpath.txt")"
}

# jmh_classpath MODULE: compiles MODULE's main and test classes (JMH's annotation processor writes the benchmark
# stubs and META-INF/BenchmarkList) with the library modules in the Maven reactor, installing nothing, and prints
# the classpath to run its *Jmh benchmarks with org.openjdk.jmh.Main (or its report tools with java).
jmh_classpath() {
  ./mvnw -B -q -pl "pipeline-events,pipeline-kafka,pipeline-web,$1" test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/jmh-cp.txt >&2
  echo "$1/target/test-classes:$1/target/classes:$(cat "$1/target/jmh-cp.txt")"
}

# load_average: the machine's load average over the last minute, for the reports of benchmarks that run on it.
load_average() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown; }

# "process thread-group ticks" for every thread of the given pids (the stack JVM, the broker, PostgreSQL's processes).
# An entry postgresql-tree=POSTMASTER stands for the postmaster and its children at the time of the call, each named
# by its role from its process title (backend, checkpointer, walwriter, autovacuum worker, ...), and the CPU of the
# children it has reaped (autovacuum workers come and go) as "exited-children".
threads() {
  local name pid role
  for entry in "$@"; do
    name=${entry%%=*} pid=${entry#*=}
    if [ "$name" = postgresql-tree ]; then
      for child in $(pgrep -P "$pid"); do
        role=$(tr '\0' ' ' < /proc/"$child"/cmdline 2>/dev/null | sed -E 's/^postgres: *//; s/ +$//') || continue
        case $role in
          *'('*) role=backend ;;
          'autovacuum worker'*) role=autovacuum_worker ;;
          *) role=${role// /_} ;;
        esac
        awk -v role="$role" '{ rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " "); print "postgresql", role, f[12] + f[13] }' \
          /proc/"$child"/stat 2>/dev/null || true
      done
      awk '{ rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
             print "postgresql", "postmaster", f[12] + f[13]; print "postgresql", "exited-children", f[14] + f[15] }' \
        /proc/"$pid"/stat 2>/dev/null || true
      continue
    fi
    for task in /proc/"$pid"/task/*/stat; do
      cat "$task" 2>/dev/null || true
    done | awk -v process="$name" '{
      comm = $0; sub(/^[^(]*\(/, "", comm); sub(/\) [^)]*$/, "", comm); gsub(/ /, "_", comm)
      rest = $0; sub(/^.*\) /, "", rest); split(rest, f, " ")
      gsub(/[0-9]+/, "N", comm)
      print process, comm, f[12] + f[13]
    }'
  done
}
