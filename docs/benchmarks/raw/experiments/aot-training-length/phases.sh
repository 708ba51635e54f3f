#!/usr/bin/env bash
# For each run directory ab.sh left (RUN_DIRS, default /tmp/aot-training-ab/*): per service JVM, the C2 (level 4)
# compilations started before its warm-up ended and after, and when ingest's request path reached level 4
# (JVM uptime; "ready" is ingest's "Warmed up" line on the same clock).
set -euo pipefail
secs() { date -u -d "$1" +%s.%N; }
for dir in ${RUN_DIRS:-/tmp/aot-training-ab/*}; do
  [ -f "$dir/warmup.txt" ] || continue
  line="$(basename "$dir"):"
  for svc in ingest decoder rules notify; do
    log=$(grep -l "dev.iotpipeline.$svc\." "$dir"/jit/*.log 2>/dev/null | head -1) || true
    [ -n "$log" ] || continue
    started=$(grep "\[$svc-service\].*process running for" "$dir/warmup.txt" | head -1)
    warmed=$(grep "\[$svc-service\].*Warmed up" "$dir/warmup.txt" | head -1)
    [ -n "$started" ] && [ -n "$warmed" ] || continue
    running=$(sed 's/.*process running for \([0-9.]*\)).*/\1/' <<<"$started")
    ready=$(echo "$running + $(secs "${warmed%%Z *}") - $(secs "${started%%Z *}")" | bc)
    counts=$(awk -v ready="$ready" '
      { t = substr($1, 2) + 0; level = ""
        for (i = 3; i <= NF; i++) if ($i ~ /^[0-4]$/) { level = $i; break }
        if (level == 4) { if (t < ready) before++; else after++ } }
      END { printf "%d/%d", before, after }' "$log")
    line+=" $svc ready@${ready}s c2 before/after $counts;"
    if [ "$svc" = ingest ]; then
      hot=$(awk '/ 4 +org\.apache\.(catalina\.connector\.CoyoteAdapter::service|catalina\.core\.StandardWrapperValve::invoke|kafka\.clients\.producer\.internals\.RecordAccumulator::append) / {
          for (i = 3; i <= NF; i++) if ($i ~ /::/) { sub(/.*\./, "", $i); printf "%s@%s ", $i, substr($1, 2, length($1) - 3) } }' "$log")
      line+=" ingest L4: $hot;"
    fi
  done
  echo "$line"
done
