#!/usr/bin/env bash
# The device registry at a million devices (issue 29), on a fresh `./pipeline run` (all services in one JVM):
#   - DEVICES devices imported into channel demo in requests of BATCH CSV lines, each device with its own secret:
#     each request's time and answer;
#   - the same import again: every line unchanged, nothing written (idempotent), and its time;
#   - a device credential of the import posting as its device (202) and as another (403);
#   - the stack JVM's heap in use after a full collection, before the import and after (the registry's footprint);
#   - the stack stopped and started again on the same data: time to READY and the registry's own read time;
#   - the bearer check with the registry loaded (JMH, DeviceRegistryJmh at DEVICES devices, one thread);
#   - propagation between instances: `./pipeline run --processes` with two ingest processes, both under load
#     (bench/postload, RATE uplinks/s each); a device disabled and enabled again through one instance ROUNDS times,
#     each time how long until the other one refuses (and then accepts) the device's credential.
# Usage: [DEVICES=1000000] [BATCH=250000] [ROUNDS=20] [RATE=250] [REPORT=docs/benchmarks/registry.md] bench/registry.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
export DEVICES=${DEVICES:-1000000} BATCH=${BATCH:-250000} ROUNDS=${ROUNDS:-20} RATE=${RATE:-250}
export POSTLOAD=$PWD/bench/postload/postload
(cd bench/postload && go build -o postload .)
export OUT=${OUT:-docs/benchmarks/raw/registry}
REPORT=${REPORT:-docs/benchmarks/registry.md}
rm -rf "$OUT"
mkdir -p "$OUT"
work=$(mktemp -d /tmp/iot-registry-bench.XXXXXX)
trap 'rm -rf "$work"; [ -z "$BENCH_STACK" ] || kill -TERM "$BENCH_STACK" 2>/dev/null || true' EXIT

# The import files: one device per line, its secret derived from its number (so this script can post with one).
awk -v n="$DEVICES" -v batch="$BATCH" -v dir="$work" 'BEGIN {
  for (i = 1; i <= n; i++) {
    if ((i - 1) % batch == 0) { f = sprintf("%s/import-%03d.csv", dir, int((i - 1) / batch) + 1); print "deviceId,deviceType,labels,secret" > f }
    printf "reg-%07d,em300th,floor=%d,registry-bench-secret-%07d\n", i, i % 10, i > f
  }
}'
export WORK=$work

# Heap in use (MB) of the stack JVM after a full collection.
heap_mb() {
  local pid=$1
  jcmd "$pid" GC.run > /dev/null
  jstat -gc "$pid" | awk 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
    NR == 2 { printf "%.0f\n", ($col["S0U"] + $col["S1U"] + $col["EU"] + $col["OU"]) / 1024 }'
}

# post_as SECRET DEVICE: the status of one uplink posted with SECRET as DEVICE.
post_as() {
  curl -s -o /dev/null -w '%{http_code}' -X POST "$INGEST_URL/sensor-data/demo/encoded/em300th" \
    -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
    -d "{\"deviceId\":\"$2\",\"payloadHex\":\"01755C03673401046865\"}"
}

# import_all NAME: every import file once; one line per request: file, status, seconds, answer.
import_all() {
  local name=$1 file answer
  for file in "$WORK"/import-*.csv; do
    answer=$(curl -s -o "$WORK/answer.json" -w '%{http_code} %{time_total}' -X POST "$INGEST_URL/registry/demo/import" \
      -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: text/csv' --data-binary @"$file")
    echo "$(basename "$file") $answer $(tr -d '\n' < "$WORK/answer.json")" >> "$OUT/$name.txt"
  done
}

measure() {
  local stack start
  stack=$(listener_pid "$IOT_INGEST_PORT")
  echo "heapBefore $(heap_mb "$stack")" >> "$OUT/figures.txt"
  start=$(now_us)
  import_all first
  echo "importSeconds $(awk -v d=$(($(now_us) - start)) 'BEGIN {printf "%.1f", d / 1e6}')" >> "$OUT/figures.txt"
  # Notify's mirror of the registry (GET /devices/registered, with last seen) catches up behind the imports.
  local deadline=$(($(date +%s) + 900)) listed=0
  until [ "$listed" = "$DEVICES" ] || [ "$(date +%s)" -gt "$deadline" ]; do
    sleep 1
    listed=$(curl -s -H "Authorization: Bearer $ADMIN_TOKEN" "$NOTIFY_URL/devices/registered?channel=demo&limit=1" \
      | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
  done
  echo "mirrorSeconds $(awk -v d=$(($(now_us) - start)) 'BEGIN {printf "%.1f", d / 1e6}') $listed" >> "$OUT/figures.txt"
  echo "heapAfter $(heap_mb "$stack")" >> "$OUT/figures.txt"
  import_all again
  echo "ownDevice $(post_as registry-bench-secret-0000001 reg-0000001)" >> "$OUT/figures.txt"
  echo "otherDevice $(post_as registry-bench-secret-0000001 reg-0000002)" >> "$OUT/figures.txt"
  echo "lastDevice $(post_as "registry-bench-secret-$(printf %07d "$DEVICES")" "reg-$(printf %07d "$DEVICES")")" \
    >> "$OUT/figures.txt"
}

restarted() {
  echo "restartReadyAt $(now_us)" >> "$OUT/figures.txt"
  echo "afterRestart $(post_as registry-bench-secret-0000001 reg-0000001)" >> "$OUT/figures.txt"
}
# until_status URL SECRET STATUS: polls one uplink to URL's ingest with SECRET as prop-1 until it answers STATUS (10 s
# at most); prints the µs it took.
until_status() {
  local url=$1 secret=$2 want=$3 start got deadline
  start=$(now_us); deadline=$((start + 10000000))
  while :; do
    got=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url/sensor-data/demo/encoded/em300th" \
      -H "Authorization: Bearer $secret" -H 'Content-Type: application/json' \
      -d '{"deviceId":"prop-1","payloadHex":"01755C03673401046865"}')
    if [ "$got" = "$want" ] || [ "$(now_us)" -ge "$deadline" ]; then
      echo "$(($(now_us) - start)) $got"
      return
    fi
  done
}

# Under `--processes` with two ingest instances: INGEST_URL is the first, the second listens 100 ports above.
propagation() {
  local other="http://127.0.0.1:$((IOT_INGEST_PORT + 100))" secret=registry-bench-propagation-secret round
  local registry="$INGEST_URL/registry/demo/devices/prop-1" pids=()
  curl -sf -o /dev/null -X PUT "$registry" -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
    -d "{\"deviceType\":\"em300th\",\"secret\":\"$secret\"}"
  until_status "$other" "$secret" 202 > /dev/null
  for url in "$INGEST_URL" "$other"; do
    "$POSTLOAD" -url "$url" -key "$DEVICE_KEY" -channel demo -rate "$RATE" -devices 1000 -conns 64 -duration 600s \
      > /dev/null 2>&1 &
    pids+=($!)
  done
  sleep 5
  for round in $(seq 1 "$ROUNDS"); do
    curl -sf -o /dev/null -X PUT "$registry" -H "Authorization: Bearer $ADMIN_TOKEN" \
      -H 'Content-Type: application/json' -d '{"deviceType":"em300th","enabled":false}'
    echo "disable $(until_status "$other" "$secret" 403) $(until_status "$INGEST_URL" "$secret" 403)" >> "$OUT/propagation.txt"
    curl -sf -o /dev/null -X PUT "$registry" -H "Authorization: Bearer $ADMIN_TOKEN" \
      -H 'Content-Type: application/json' -d '{"deviceType":"em300th","enabled":true}'
    echo "enable $(until_status "$other" "$secret" 202) $(until_status "$INGEST_URL" "$secret" 202)" >> "$OUT/propagation.txt"
  done
  kill "${pids[@]}" 2> /dev/null || true
}
export -f heap_mb post_as import_all measure restarted until_status propagation

export BENCH_DATA_DIR=$work/data
bench_stack "$OUT/stack-1.log" measure
echo "restartLaunchedAt $(now_us)" >> "$OUT/figures.txt"
bench_stack "$OUT/stack-2.log" restarted
grep -h "Device registry:" "$OUT/stack-2.log" | tail -1 | sed 's/.*Device registry: /registryRead /' >> "$OUT/figures.txt"
(unset BENCH_DATA_DIR; BENCH_PROCESSES=1 IOT_INSTANCES=ingest=2 bench_stack "$OUT/stack-3.log" propagation)
rm -f "$OUT"/stack-*.log

# The bearer check, as bench/jmh.sh runs the other benchmarks (compiled in the reactor, one fork).
./mvnw -B -q -pl pipeline-events,pipeline-kafka,pipeline-web,ingest-service test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/jmh-cp.txt >&2
java -cp "ingest-service/target/test-classes:ingest-service/target/classes:$(cat ingest-service/target/jmh-cp.txt)" \
  org.openjdk.jmh.Main -f 1 -wi 3 -w 2s -i 5 -r 2s -jvmArgs -Xmx4g -p devices="$DEVICES" -rf json \
  -rff "$OUT/jmh.json" 'DeviceRegistryJmh' > "$OUT/jmh.log" 2>&1

command="bench/registry.sh"
[ "$DEVICES" = 1000000 ] || command="DEVICES=$DEVICES $command"
[ "$BATCH" = 250000 ] || command="BATCH=$BATCH $command"
{
  echo "# Device registry at $(printf "%'d" "$DEVICES") devices"
  echo
  echo "- **Command:** \`$command\`"
  echo "- **Machine:** $(nproc) cores ($(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)); $(java -version 2>&1 | head -1)"
  echo "- **Stack:** \`./pipeline run\` (one JVM for the services), fresh; then stopped and started again on the same data"
  echo
  echo "## Import, $(printf "%'d" "$BATCH") devices per request (CSV, each device with its own secret)"
  echo
  echo "| file | first import: status, s | devices/s | again: status, s | again: unchanged |"
  echo "|---|---|---:|---|---:|"
  while read -r file status seconds answer && read -r _ status2 seconds2 answer2 <&3; do
    created=$(sed -n 's/.*"created":\([0-9]*\).*/\1/p' <<< "$answer")
    unchanged=$(sed -n 's/.*"unchanged":\([0-9]*\).*/\1/p' <<< "$answer2")
    printf '| %s | %s, %.1f | %s | %s, %.1f | %s |\n' "$file" "$status" "$seconds" \
      "$(awk -v c="${created:-0}" -v s="$seconds" 'BEGIN {printf "%.0f", c / s}')" "$status2" "$seconds2" "${unchanged:-?}"
  done < "$OUT/first.txt" 3< "$OUT/again.txt"
  echo
  awk '{ f[$1] = $2; r[$1] = $0 }
    END {
      printf "- **Heap of the stack JVM** in use after a full collection: %s MB before the import, %s MB after: %s MB for the registry.\n", f["heapBefore"], f["heapAfter"], f["heapAfter"] - f["heapBefore"]
      split(r["mirrorSeconds"], m, " ")
      printf "- **The mirror in notify** (GET /devices/registered, with last seen) listed %s devices %s s after the first import request (the imports took %s s).\n", m[3], m[2], f["importSeconds"]
      printf "- **A device credential** of the import: as its own device %s, as another device %s; the last device imported %s.\n", f["ownDevice"], f["otherDevice"], f["lastDevice"]
      printf "- **Restart** on the same data: READY %.1f s after the launch; %s; then its credential %s.\n", (f["restartReadyAt"] - f["restartLaunchedAt"]) / 1e6, substr(r["registryRead"], 14), f["afterRestart"]
    }' "$OUT/figures.txt"
  echo
  echo "## A change reaching the other instance"
  echo
  echo "\`./pipeline run --processes\` with two ingest processes, each taking $RATE uplinks/s from bench/postload; a device"
  echo "disabled, then enabled, through the first instance $ROUNDS times. Time from the change's answer until an uplink"
  echo "with the device's credential gets the new answer (403, then 202) from the other instance, polled with curl one"
  echo "request after another; then the same on the instance that made the change, which applied it before answering:"
  echo "its row is what one polling request costs here, the resolution of the other row."
  echo
  echo "| change | instance | median ms | max ms | answers as expected |"
  echo "|---|---|---:|---:|---|"
  for change in disable enable; do
    for column in 2 4; do
      grep "^$change " "$OUT/propagation.txt" | awk -v c=$column '{print $c, $(c + 1)}' | sort -n | awk \
        -v change="$change" -v which="$([ $column = 2 ] && echo "the other" || echo "the one changed")" \
        -v want="$([ $change = disable ] && echo 403 || echo 202)" '
        { t[NR] = $1 / 1000; ok += ($2 == want) }
        END { printf "| %s | %s | %.0f | %.0f | %d of %d |\n", change, which, t[int((NR + 1) / 2)], t[NR], ok, NR }'
    done
  done
  echo
  echo "## The bearer check with the registry loaded (JMH, one thread, µs per call)"
  echo
  echo "| benchmark | µs per call | ± |"
  echo "|---|---:|---:|"
  sed -n 's/.*"benchmark" *: *"[^"]*\.\([A-Za-z]*\)".*/\1/p; s/.*"score" *: *\([0-9.E-]*\).*/\1/p; s/.*"scoreError" *: *\([0-9.E-]*\).*/\1/p' "$OUT/jmh.json" \
    | paste - - - | awk '{ printf "| `%s` | %.3f | %.3f |\n", $1, $2, $3 }'
  echo
  echo "\`deviceCredential\`: a device credential's bearer check (the SHA-256 of the secret, the configured keys compared"
  echo "in constant time, the registry's index) and the admission of its uplink; \`channelKey\`: the same for a channel key,"
  echo "whose admission looks the device up in the registry; \`lookup\`: the index lookup of a known hash alone."
} > "$REPORT"
cat "$REPORT"
