#!/usr/bin/env bash
pm=$(head -1 /tmp/pgx/postmaster.pid)
t=0
for p in $(pgrep -x postgres); do s=$(cat /proc/$p/stat); r=${s##*) }; set -- $r; t=$((t+${12}+${13})); if [ $p = $pm ]; then t=$((t+${14}+${15})); fi; done
echo $t
