#!/usr/bin/env bash
# Beside docs/benchmarks/raw/experiments/k6-vu-state.md: K6DIR is the k6/ directory under test (the code before in a copy); bench/nullserver/nullserver must listen on 127.0.0.1:28090.
# run.sh NAME K6DIR: one seed-shape k6 run against the null server; prints name, CPU µs per POST, POST p50/p99.
set -u
name=$1 dir=$2 out=/tmp/k6ab/$name
mkdir -p $out
INGEST_URL=http://127.0.0.1:28090 NOTIFY_URL=http://127.0.0.1:28090 WS_URL=ws://127.0.0.1:28090/ws K6_NO_USAGE_REPORT=true GOGC=400 \
  K6_WEB_DASHBOARD=true K6_WEB_DASHBOARD_PORT=-1 K6_WEB_DASHBOARD_EXPORT=$out/d.html REPORT_DIR=$out \
  /usr/bin/time -f "%U %S" -o $out/time k6 run --quiet -e DRAIN=1 -e STALL=1 $dir/suite1-closed-loop.js > $out/log 2>&1
python3 - "$out" "$name" <<'PY'
import json,sys,glob
out,name=sys.argv[1:]
u,s=map(float,open(out+"/time").read().split("\n")[-2].split())
j=json.load(open(glob.glob(out+'/*summary.json')[0]))
m=j['metrics']
k=[k for k in m if k.startswith('http_req_duration{scenario:ingestion')][0]
v=m[k].get('values',m[k])
n=m['http_reqs'].get('values',m['http_reqs'])['count']
print(name, 'cpu_us_per_req=%.0f'%((u+s)*1e6/n), 'p50=%.2f p95=%.2f p99=%.2f max=%.1f'%(v['med'],v['p(95)'],v['p(99)'],v['max']), 'reqs',n)
PY
