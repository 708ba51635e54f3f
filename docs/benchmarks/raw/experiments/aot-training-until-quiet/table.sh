#!/usr/bin/env bash
# One row per run of the A/B from its report (latency-<run>.md beside this script).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
echo "| run | cold POST p99 | cold time_lapse p95 | cold stack µs / uplink (JIT) | cold k6 µs | warm POST p99 | warm time_lapse p95 | warm stack µs / uplink (JIT) | warm k6 µs | READY |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for report in "$HERE"/latency-${PREFIX:-[QT]}*.md; do
  run=$(basename "$report" .md); run=${run#latency-}
  row() { awk -v phase="$1" -v name="$2" -v col="$3" '
      /^## / { in_phase = ($2 == phase) }
      in_phase && index($0, name) { split($0, f, "|"); v = f[col]; gsub(/^ +| +$|\*/, "", v); sub(/ \(.*/, "", v); print v; exit }' "$report"; }
  ready=$(grep -o 'per run: [0-9.]* s' "$report" | head -1 | sed 's/per run: //')
  echo "| $run | $(row cold '| ingest POST' 5) | $(row cold '| time_lapse' 4) | $(row cold 'stack (all but k6)' 3) ($(row cold 'stack (all but k6)' 4)) | $(row cold '| k6 |' 3) | $(row warm '| ingest POST' 5) | $(row warm '| time_lapse' 4) | $(row warm 'stack (all but k6)' 3) ($(row warm 'stack (all but k6)' 4)) | $(row warm '| k6 |' 3) | $ready |"
done
