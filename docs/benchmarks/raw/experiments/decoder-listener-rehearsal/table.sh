#!/usr/bin/env bash
# One row per run of an A/B from its report (latency-<run>.md in REPORTS, default beside this script) and the warm-up
# line of one service (ROUNDS_OF, default decoder) that the run left in OUT/<run>/warmup.txt.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPORTS=${REPORTS:-$HERE}
OUT=${OUT:-/tmp/decoder-listener-ab}
ROUNDS_OF=${ROUNDS_OF:-decoder}
echo "| run | cold POST p99 | cold time_lapse p95 / p99 | cold decoder poll p95 / p99 | cold decoder publish p95 / p99 | cold notify delivery p95 | warm time_lapse p95 | READY | $ROUNDS_OF rounds |"
echo "|---|---|---|---|---|---|---|---|---|"
for report in "$REPORTS"/latency-*.md; do
  run=$(basename "$report" .md); run=${run#latency-}
  row() { awk -v phase="$1" -v name="$2" -v col="$3" '
      /^## / { in_phase = ($2 == phase) }
      in_phase && index($0, name) { split($0, f, "|"); v = f[col]; gsub(/^ +| +$/, "", v); print v; exit }' "$report"; }
  rounds=$(grep -h "$ROUNDS_OF[A-Z ]* [0-9]* rounds" "$OUT/$run/warmup.txt" 2>/dev/null \
    | sed "s/.*$ROUNDS_OF[A-Z ]* \([0-9]*\) rounds.*/\1/" | head -1)
  ready=$(grep -o 'per run: [0-9.]* s' "$report" | head -1 | sed 's/per run: //')
  echo "| $run | $(row cold '| ingest POST' 5) | $(row cold '| time_lapse' 4) / $(row cold '| time_lapse' 5) | $(row cold 'decoder-poll' 4) / $(row cold 'decoder-poll' 5) | $(row cold 'decoder-publish' 4) / $(row cold 'decoder-publish' 5) | $(row cold 'stream="data-units"' 4) | $(row warm '| time_lapse' 4) | $ready | ${rounds:--} |"
done
