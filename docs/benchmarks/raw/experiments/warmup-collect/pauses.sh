#!/usr/bin/env bash
# pauses.sh DIR...: each run's collections from 2 s before the load's first answer to 20 s after (s from it: pause ms).
for d in "$@"; do
  start=$(sort -n "$d/posts.txt" | head -1 | awk '{printf "%.3f", $1/1000}')
  printf "%s: " "$(basename "$d")"
  grep Pause "$d/gc.log" | while read -r line; do
    t=${line:1:23}; e=$(date -u -d "${t/T/ }" +%s.%N)
    awk -v e="$e" -v s="$start" -v l="$line" 'BEGIN { d = e - s; if (d >= -2 && d < 20) { n = split(l, f, " "); printf "%+.1fs %s%s ", d, (l ~ /Diagnostic/ ? "full " : ""), f[n] } }'
  done
  echo
done
