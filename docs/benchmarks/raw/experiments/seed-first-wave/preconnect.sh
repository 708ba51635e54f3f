#!/usr/bin/env bash
# The seed shape's first wave against bench/nullserver -feed with and without the generator's connections opened
# first: bench/postload -closed (500 devices × 60, POST, sleep 1 s), a fresh null server per run, the arms
# alternated P N N P P N. Per run: the first second's POSTs (p50 / max), the whole run's p99 and after the first
# second, the generator's CPU per POST. Raw samples and reports in OUT (default: beside this script, preconnect/).
set -euo pipefail
cd "$(dirname "$0")/../../../../.."
source bench/lib.sh
OUT=${OUT:-docs/benchmarks/raw/experiments/seed-first-wave/preconnect}
rm -rf "$OUT"; mkdir -p "$OUT"
(cd bench/postload && go build -o postload .) && (cd bench/nullserver && go build -o nullserver .)
pct() { sort -n | awk -v p="$1" '{ a[NR] = $1 } END { i = int(p / 100 * NR + 0.999999); if (i < 1) i = 1; printf "%.1f", a[i] }'; }
echo "| run | connections | first second: POSTs, p50 / max | whole run: p99 | after the first second: p99 | generator CPU per POST, µs |"
echo "|---|---|---|---|---|---|"
n=0
for arm in P N N P P N; do
  n=$((n + 1))
  pre=$([ "$arm" = P ] && echo true || echo false)
  bench/nullserver/nullserver -addr 127.0.0.1:28090 -feed > /dev/null 2>&1 & null=$!
  sleep 0.5
  bench/postload/postload -closed -devices 500 -iterations 60 -interval 1s -preconnect="$pre" \
    -url http://127.0.0.1:28090 -channel "first-wave-$n" -samples "$OUT/$arm$n-posts.txt" -report "$OUT/$arm$n.json" \
    > "$OUT/$arm$n.log" 2>&1
  kill "$null"; wait "$null" 2>/dev/null || true
  f=$OUT/$arm$n-posts.txt
  start=$(awk 'NR == 1 || $1 < m { m = $1 } END { print m }' "$f")
  first=$(awk -v s="$start" '$1 - s < 1000 { print $2 }' "$f")
  after=$(awk -v s="$start" '$1 - s >= 1000 { print $2 }' "$f")
  echo "| $arm$n | $([ "$arm" = P ] && echo "opened first" || echo "opened by the first POSTs") | $(echo "$first" | wc -l), $(echo "$first" | pct 50) / $(echo "$first" | pct 100) | $(cut -d' ' -f2 "$f" | pct 99) | $(echo "$after" | pct 99) | $(jq '(.cpuSeconds * 1e6 / .sent) | round' "$OUT/$arm$n.json") |"
  gzip "$f"
done
