#!/usr/bin/env bash
# A/B of C2's inlining budget in every JVM of the stack (services and broker, through JAVA_TOOL_OPTIONS), one build
# and one AOT cache, each run `RUNS=1 bench/latency.sh` on a fresh stack: A = as shipped, C = $C_OPTS.
# Usage: OUT=/tmp/c2-inlining ORDER="A1 C1 A2 C2" bash ab.sh
set -u
cd /work/main
OUT=${OUT:-/tmp/c2-inlining}
C_OPTS=${C_OPTS:--XX:MaxInlineLevel=9 -XX:InlineSmallCode=1000}
mkdir -p "$OUT"
for r in ${ORDER:-A1 C1 A2 C2 A3 C3}; do
  run_dir=$OUT/$r
  case $r in
    A*) JAVA_TOOL_OPTIONS= RUNS=1 OUT="$run_dir" REPORT="$run_dir/$r.md" bench/latency.sh > "$OUT/$r.log" 2>&1 ;;
    C*) JAVA_TOOL_OPTIONS="$C_OPTS" RUNS=1 OUT="$run_dir" REPORT="$run_dir/$r.md" bench/latency.sh > "$OUT/$r.log" 2>&1 ;;
  esac
  echo "$r done $(date +%T)"
  sleep 5
done
