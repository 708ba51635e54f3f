#!/usr/bin/env bash
# Restarts under seed 003's load (issue 27): ./pipeline run --processes with two instances of every service
# (IOT_INSTANCES), and for each part in SERVICES and each way in HOW it goes down (kill -9, SIGTERM) one case: the
# service's second instance (or the broker, or PostgreSQL) is taken down FAULT_AT (10) s into the seed shape (k6/run
# suite1-closed-loop, ITERATIONS 90), the stack's supervisor starts it again, and the report takes POST and
# time_lapse percentiles over the minute after it is ready (the broker: ingest ready again; PostgreSQL: notify ready
# again). For ingest the devices spread over its instances as behind a load balancer with readiness checks
# (INGEST_URLS, k6/lib/instances.js): the second instance's devices fail over to the first while it is down and come
# back once it answers ready. HOW "join": a third instance of the service starts (./pipeline join) FAULT_AT s into the
# load instead, and the window follows its readiness (ingest: a third of the devices wait on the first instance for
# it). INGEST_ALONE=1: ingest's cases as before 2026-11-30 (twenty-sixth session): the load starts once the restarted
# or joined instance is ready and goes to it alone, and "ingest-warm" then runs the shape once more against the (now
# warm) second instance, the same start of the load without a restart. RUNS (3) fresh stacks, the cases one after another on
# each. WARM_FIRST=1 runs the seed shape once on each fresh stack before its first case, so that a case that comes
# first (e.g. SERVICES=ingest) meets a decoder, rules and notify that have carried load, as a running fleet's have,
# rather than ones warmed only by their warm-ups; that run's figures are not reported.
# Raw: docs/benchmarks/raw/restarts/run-N/<service>-<how>/ (k6 summary and per-sample CSV, the down and ready times);
# report: docs/benchmarks/restarts.md. Reads the processes-mode AOT cache if it is fresh (./pipeline aot --processes).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${RUNS:-3}
export OUT=${OUT:-docs/benchmarks/raw/restarts} EXTRA=${EXTRA:-} ITERATIONS=${ITERATIONS:-90} FAULT_AT=${FAULT_AT:-10}
export SERVICES=${SERVICES:-decoder rules notify ingest kafka postgres} HOW=${HOW:-kill term join}
export WARM_FIRST=${WARM_FIRST:-0} INGEST_ALONE=${INGEST_ALONE:-0}
REPORT=${REPORT:-docs/benchmarks/restarts.md}
export IOT_INSTANCES=ingest=2,decoder=2,rules=2,notify=2 BENCH_PROCESSES=1
rm -rf "$OUT"
mkdir -p "$OUT"

now_ms() { local t=$EPOCHREALTIME; t=${t/[.,]/}; echo $(( t / 1000 )); }
ready() { curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$1/actuator/health/readiness"; }

# bounce PORT kill|term DIR [READY_PORT]: takes the process listening on PORT down, waits until the supervisor has it
# listening and ready again (READY_PORT's readiness, PORT's by default), and writes when it went down and when it was
# ready into DIR.
bounce() {
  local port=$1 how=$2 dir=$3 ready_port=${4:-$1} pid deadline
  pid=$(ss -Htlnp "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  [ -n "$pid" ] || { echo "nothing listens on $port" >> "$dir/failures.txt"; return 1; }
  now_ms > "$dir/down-ms.txt"
  if [ "$how" = kill ]; then kill -9 "$pid"; else kill -TERM "$pid"; fi
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  deadline=$(( $(now_ms) + 120000 ))
  until ss -Htln "sport = :$port" | grep -q . && ready "$ready_port"; do
    [ "$(now_ms)" -lt "$deadline" ] || { echo "$port not ready within 120 s" >> "$dir/failures.txt"; return 1; }
    sleep 0.1
  done
  now_ms > "$dir/ready-ms.txt"
}

# join_instance SERVICE PORT DIR: starts one more instance of SERVICE on PORT (./pipeline join, in the background: its
# pid in JOINED) and writes when the command started (down-ms.txt) and when the new instance was ready into DIR.
join_instance() {
  local service=$1 port=$2 dir=$3 deadline
  now_ms > "$dir/down-ms.txt"
  ./pipeline join "$service" "$port" > "$dir/join.log" 2>&1 &
  JOINED=$!
  deadline=$(( $(now_ms) + 120000 ))
  until ready "$port"; do
    kill -0 "$JOINED" 2>/dev/null && [ "$(now_ms)" -lt "$deadline" ] \
      || { echo "joined $service on $port not ready within 120 s" >> "$dir/failures.txt"; return 1; }
    sleep 0.1
  done
  now_ms > "$dir/ready-ms.txt"
}

# leave DIR: stops the joined instance gracefully (./pipeline join stops it on SIGTERM).
leave() {
  kill -TERM "$JOINED" 2>/dev/null || true
  wait "$JOINED" 2>/dev/null || true
}

# seed DIR [VAR=VALUE...]: the seed shape, its summary and every sample (ms timestamps) into DIR/k6/.
seed() {
  local dir=$1 status=0
  shift
  mkdir -p "$dir/k6"
  # shellcheck disable=SC2086
  env "$@" RUN_DIR="$dir/k6" K6_CSV_TIME_FORMAT=unix_milli k6/run suite1-closed-loop -e ITERATIONS="$ITERATIONS" \
    $EXTRA --out csv="$dir/k6/samples.csv.gz" > "$dir/k6.log" 2>&1 || status=$?
  [ "$status" -eq 0 ] || echo "$status" > "$dir/k6-exit.txt"
  rm -f "$dir/k6/dashboard.html"
  # Only what the report reads: every POST's and every time_lapse sample, with its time (a tenth of k6's rows).
  zcat "$dir/k6/samples.csv.gz" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "metric_name,timestamp,metric_value,scenario"; next }
    # Not the readiness checks of k6/lib/instances.js, nor an attempt that reached no server (status 0: refused or
    # reset; its uplink went to the next instance, that POST is the sample).
    ($c["metric_name"] == "http_req_duration" && $c["status"] != "0" && $c["name"] !~ /readiness/) || $c["metric_name"] == "time_lapse" {
      print $c["metric_name"] "," $c["timestamp"] "," $c["metric_value"] "," $c["scenario"] }' | gzip > "$dir/k6/samples.tmp"
  mv "$dir/k6/samples.tmp" "$dir/k6/samples.csv.gz"
}

# Runs under the stack (bench_stack): every case, into $1.
measure() {
  local out=$1 service how dir port target ready_port load urls
  if [ "$WARM_FIRST" = 1 ]; then
    echo "  the seed shape once, not reported (WARM_FIRST=1)"
    seed "$out/warm-first"
    grep -h 'uplinks answered 202\|time_lapse p50' "$out/warm-first/k6/suite1-closed-loop-report.md" > "$out/warm-first.txt" || true
    rm -rf "$out/warm-first"
  fi
  for service in $SERVICES; do
    case $service in
      kafka) port=$IOT_KAFKA_PORT ready_port=$(echo "$INGEST_URL" | grep -o '[0-9]*$') ;;
      postgres) port=$IOT_POSTGRES_PORT ready_port=$(echo "$NOTIFY_URL" | grep -o '[0-9]*$') ;;
      *) port=$(( $(eval echo "\$${service^^}_URL" | grep -o '[0-9]*$') + 100 )) ready_port=$port ;;
    esac
    for how in $HOW; do
      dir="$out/$service-$how" target=$port
      # A joining instance is the third: on the port after the second's.
      [ "$how" != join ] || target=$(( port + 100 ))
      if [ "$how" = join ]; then
        case $service in kafka | postgres) continue ;; esac
      fi
      mkdir -p "$dir"
      echo "  $service $how (instance on $target)"
      if [ "$service" = ingest ] && [ "$INGEST_ALONE" = 0 ]; then
        # The devices spread over the instances (k6/lib/instances.js); a joining instance's devices post to the first
        # until it answers ready.
        urls="$INGEST_URL,http://127.0.0.1:$port"
        [ "$how" != join ] || urls+=",http://127.0.0.1:$target"
        seed "$dir" INGEST_URLS="$urls" &
        load=$!
        sleep "$FAULT_AT"
        if [ "$how" = join ]; then join_instance "$service" "$target" "$dir" || true; else bounce "$target" "$how" "$dir" || true; fi
        wait "$load"
        [ "$how" != join ] || leave
      elif [ "$how" = join ] && [ "$service" = ingest ]; then
        join_instance "$service" "$target" "$dir" || true
        seed "$dir" INGEST_URL="http://127.0.0.1:$target"
        leave
      elif [ "$how" = join ]; then
        seed "$dir" &
        load=$!
        sleep "$FAULT_AT"
        join_instance "$service" "$target" "$dir" || true
        wait "$load"
        leave
      elif [ "$service" = ingest ]; then
        bounce "$target" "$how" "$dir" || true
        seed "$dir" INGEST_URL="http://127.0.0.1:$target"
      else
        seed "$dir" &
        load=$!
        sleep "$FAULT_AT"
        bounce "$target" "$how" "$dir" "$ready_port" || true
        wait "$load"
      fi
      sleep 5
    done
    if [ "$service" = ingest ] && [ "$INGEST_ALONE" = 1 ]; then
      # The same shape once more against the instance that just took it: warm, with the load starting as it does in
      # ingest's cases (every VU's first POST on a new connection at once), so the report shows what of those
      # cases' figures the restart itself adds.
      dir="$out/ingest-warm"
      mkdir -p "$dir"
      echo "  ingest warm (instance on $port, the run after)"
      now_ms > "$dir/down-ms.txt"
      cp "$dir/down-ms.txt" "$dir/ready-ms.txt"
      seed "$dir" INGEST_URL="http://127.0.0.1:$port"
      sleep 5
    fi
  done
}

export -f now_ms ready bounce join_instance leave seed
for run in $(seq 1 "$RUNS"); do
  mkdir -p "$OUT/run-$run"
  echo "restarts run $run of $RUNS"
  bench_stack "$OUT/run-$run/stack.log" measure "$OUT/run-$run"
  grep '\[supervisor\]' "$OUT/run-$run/stack.log" > "$OUT/run-$run/supervisor.txt" || true
  rm -f "$OUT/run-$run/stack.log"
done
command="RUNS=$RUNS"
for var in SERVICES HOW ITERATIONS FAULT_AT WARM_FIRST INGEST_ALONE; do
  case "$var=${!var}" in "SERVICES=decoder rules notify ingest kafka postgres" | "HOW=kill term join" | ITERATIONS=90 | FAULT_AT=10 | WARM_FIRST=0 | INGEST_ALONE=0) ;;
    *) command+=" $var=\"${!var}\"" ;; esac
done
./pipeline report restarts "$OUT" "$command bench/restarts.sh${EXTRA:+ (EXTRA=$EXTRA)}" > "$REPORT"
cat "$REPORT"
