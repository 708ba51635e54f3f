#!/usr/bin/env bash
# The store writer of two revisions, back to back on the same machine: bench/history.sh of BASE (a git worktree
# of it) and of the working tree, alternating RUNS times each, then the writer's data units/s of every run and the
# medians in one Markdown report. For a change to notify's history SQL, where the machine's noise is larger than
# the change.
# Usage: [ROWS=1000000] [RUNS=3] [WRITER_SECONDS=30] [OUT=docs/benchmarks/history-ab.md] bench/history-ab.sh BASE
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/history-ab.sh BASE-REVISION}
export ROWS=${ROWS:-1000000} SAMPLES=${SAMPLES:-20} WRITER_SECONDS=${WRITER_SECONDS:-30}
runs=${RUNS:-3}
out=${OUT:-docs/benchmarks/history-ab.md}
work=$(mktemp -d /tmp/iot-history-ab.XXXXXX)
git worktree add -q --detach "$work/base" "$base"
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true' EXIT
head=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- notify-service/src/main || echo '+changes')
for i in $(seq "$runs"); do
  for side in base head; do
    dir=$PWD; [ "$side" = base ] && dir="$work/base"
    echo "[history-ab] run $i: $side" >&2
    (cd "$dir" && HISTORY_BENCH_DIR="$work/data-$side" OUT="$work/$side-$i.md" bench/history.sh >"$work/$side-$i.log" 2>&1) \
      || { tail -20 "$work/$side-$i.log" >&2; exit 1; }
  done
done
# "| **with 2 query threads, 30 s …** | 7,195 | …" and "| alone, no queries, 10 s | 9,183 | …": the rate column.
rate() { grep -m1 "$2" "$1" | awk -F'|' '{gsub(/[ ,]/, "", $3); print $3}'; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
{
  echo "# Store writer A/B: $base against $head"
  echo
  echo "Command: \`ROWS=$ROWS RUNS=$runs WRITER_SECONDS=$WRITER_SECONDS bench/history-ab.sh $base\` at $(date -u +%FT%TZ),"
  echo "on $(nproc) shared cores. Each run is \`bench/history.sh\` (a fresh durable PostgreSQL of $ROWS data units, then"
  echo "\`HistoryStore.storeDataUnits\` in batches of 500 new data units, with 2 query threads and alone), the two"
  echo "revisions alternating. Data units stored per second:"
  echo
  echo "| run | $base with queries | $head with queries | $base alone | $head alone |"
  echo "|---|---:|---:|---:|---:|"
  for i in $(seq "$runs"); do
    echo "| $i | $(rate "$work/base-$i.md" 'with 2 query') | $(rate "$work/head-$i.md" 'with 2 query') | $(rate "$work/base-$i.md" 'alone') | $(rate "$work/head-$i.md" 'alone') |"
  done
  printf '| **median** |'
  for key in 'with 2 query' 'alone'; do
    for side in base head; do
      printf ' %s |' "$(for i in $(seq "$runs"); do rate "$work/$side-$i.md" "$key"; done | median)"
    done
  done
  echo
} > "$out"
cat "$out"
