#!/usr/bin/env bash
set -euo pipefail
cd /work/main
source bench/lib.sh
inner() {
  local stack; stack=$(listener_pid "$IOT_INGEST_PORT")
  ls /proc/$stack/task | while read t; do cat /proc/$stack/task/$t/comm; done | grep -i compiler | sort | uniq -c
  snap() { cat /proc/$stack/task/*/stat | awk '{comm=$0; sub(/^[^(]*\(/,"",comm); sub(/\) [^)]*$/,"",comm); rest=$0; sub(/^.*\) /,"",rest); split(rest,f," "); if (comm ~ /^C2 CompilerThre/) t+=f[12]+f[13]; if (comm ~ /^C1 CompilerThre/) u+=f[12]+f[13]} END{print t+0, u+0}'; }
  date +%T.%N
  prev=$(snap)
  for i in $(seq 12); do
    sleep 0.5
    now=$(snap)
    echo "$i: C2 C1 $prev -> $now"; prev=$now
  done
}
export -f inner
bench_stack /tmp/anat/idle2-stack.log inner
