#!/bin/bash
# run.sh NAME [env...] : one suite1-closed-loop run against nullserver; prints k6 cpu/POST and POST p99
name=$1; shift
cd /work/main
/tmp/k6x/nullserver -addr 127.0.0.1:28090 & null=$!
d=/tmp/k6x/$name-$(date +%s); mkdir -p $d
s0=$(awk '{print $14+$15}' /proc/$null/stat)
/usr/bin/time -f "%M %U %S" -o $d/time.txt env "$@" REPORT_DIR=$d K6_NO_USAGE_REPORT=true INGEST_URL=http://127.0.0.1:28090 NOTIFY_URL=http://127.0.0.1:28090 WS_URL=ws://127.0.0.1:28090/ws \
  k6 run --quiet -e STALL=1 -e DRAIN=2 --summary-export $d/sum.json k6/suite1-closed-loop.js > $d/k6.log 2>&1
s1=$(awk '{print $14+$15}' /proc/$null/stat)
kill $null
python3 - $d $((s1-s0)) <<'PY'
import json,sys
d=sys.argv[1]; m=json.load(open(d+"/sum.json"))["metrics"]
u,s=map(float,open(d+"/time.txt").read().split()[-2:])
k=[k for k in m if k.startswith("http_req_duration{scenario:ingestion")][0]
n=m["http_reqs"]["count"]
print(f"{d.split('/')[-1]}: k6 cpu {(u+s)*1e6/n:.0f} us/req (user {u:.1f} sys {s:.1f}), server {int(sys.argv[2])*1e4/n:.0f} us/req, POST p95 {m[k]['p(95)']:.1f} p99 {m[k]['p(99)']:.1f} max {m[k]['max']:.1f}")
PY
