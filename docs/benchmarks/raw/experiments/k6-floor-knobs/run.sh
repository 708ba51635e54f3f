#!/usr/bin/env bash
# ad hoc: k6's own floor in the seed shape (k6/run suite1-closed-loop) against bench/nullserver -feed, one arm per
# argument NAME:VAR=VALUE (or NAME: for k6 as the suites run it), the variable given to k6 alone; one null server per
# run. The dashboard arms need `K6_WEB_DASHBOARD=${K6_WEB_DASHBOARD:-true}` in k6/lib/k6.sh (now there).
#   run.sh a1: b1:GOMAXPROCS=4 c1:GOMAXPROCS=8        run.sh d1: e1:K6_WEB_DASHBOARD=false
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../../.."
source bench/lib.sh
OUT=${OUT:-/tmp/k6-floor-knobs}
mkdir -p "$OUT"
(cd bench/nullserver && go build -o nullserver .)
for arm in "$@"; do
  n=${arm%%:*}; v=${arm#*:}
  bench/nullserver/nullserver -addr 127.0.0.1:28090 -feed > /dev/null 2>&1 & null=$!
  sleep 1
  cpu=$( { env $v INGEST_URL=http://127.0.0.1:28090 NOTIFY_URL=http://127.0.0.1:28090 WS_URL=ws://127.0.0.1:28090/ws \
    RUN_DIR=$OUT/$n k6/run suite1-closed-loop > "$OUT/$n.log" 2>&1; times; } | tail -1)
  kill $null; wait $null 2>/dev/null
  echo "$n ${v:-as the suites run it} k6 cpu=[$cpu] POST $(grep -E 'http_req_duration\{scenario:ingestion\}' "$OUT/$n.log" | head -1 | grep -o 'p(99)=[0-9.]*') $(grep -E '^\| time_lapse p50' "$OUT/$n.log" | head -1)"
done
