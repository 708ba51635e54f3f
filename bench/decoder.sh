#!/usr/bin/env bash
# Codec benchmark, with JMH (decoder-service's CodecJmh): decodes/s per core and µs per decode for each built-in
# codec and for JavaScript codecs (2 KB ES5, 100 KB ES5, ES2015+), one thread, no Kafka. With BEFORE=<commit>, the
# same JMH class also runs on that commit's codecs: the commit is built in a git worktree (with this checkout's codec
# corpus), and the class is compiled against it by javac with JMH's annotation processor, so the commit needs the
# same codec API, not JMH in its build (756c1f8, before issue 13, has none). The script then alternates this
# checkout and that commit RUNS times, and the report gives the median of the runs for both and their ratio.
# JMH's settings: JMH_OPTS (`-p codec=em300th,json` picks cases; see CodecJmh). Writes REPORT, by default
# docs/benchmarks/decoder.md (decoder-throughput.sh appends to it).
# Usage: [JMH_OPTS='-f 1 -wi 3 -w 2s -i 5 -r 2s'] [BEFORE=756c1f8] [RUNS=3] [REPORT=file.md] bench/decoder.sh
set -euo pipefail
shopt -s inherit_errexit # a failed build inside $(...) stops the script
cd "$(dirname "$0")/.."
source bench/lib.sh
read -r -a opts <<< "${JMH_OPTS:--f 1 -wi 3 -w 2s -i 5 -r 2s}"
report=${REPORT:-docs/benchmarks/decoder.md}
runs=${RUNS:-3}
bench=dev.iotpipeline.decoder.codec.CodecJmh
source=decoder-service/src/test/java/dev/iotpipeline/decoder/codec/CodecJmh.java
cp=$(jmh_classpath decoder-service)
work=$(mktemp -d)
# Replaces lib.sh's trap, which only stops a bench_stack stack; this script starts none.
cleanup() {
  [[ ! -d "$work/before" ]] || git worktree remove --force "$work/before"
  rm -rf "$work"
}
trap cleanup EXIT

# The classpath of CodecJmh compiled against commit BEFORE in a worktree. javac runs JMH's annotation processor
# itself (this checkout's JMH jars), so a commit from before JMH was in the build works too.
before_classpath() {
  local tree=$work/before old_cp jmh_cp core processor
  git worktree add -q "$tree" "$BEFORE"
  mkdir -p "$tree/decoder-service/src/test/resources/codecs"
  cp -r decoder-service/src/test/resources/codecs/corpus "$tree/decoder-service/src/test/resources/codecs/"
  # Compiled in the worktree's reactor, not installed: the local repository keeps this checkout's artifacts.
  (cd "$tree" && ./mvnw -B -q -o -pl decoder-service -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/cp.txt >&2)
  old_cp="$tree/decoder-service/target/test-classes:$tree/decoder-service/target/classes:$(cat "$tree/decoder-service/target/cp.txt")"
  jmh_cp=$(tr : '\n' <<< "$cp" | grep -e /jmh-core- -e /jopt-simple- -e /commons-math3- | paste -sd:)
  core=$(tr : '\n' <<< "$jmh_cp" | grep /jmh-core-)
  processor=$(sed 's#/jmh-core/\([^/]*\)/jmh-core-#/jmh-generator-annprocess/\1/jmh-generator-annprocess-#' <<< "$core")
  mkdir -p "$work/before-jmh"
  javac -nowarn -proc:full -processorpath "$processor:$core" -cp "$old_cp:$jmh_cp" -d "$work/before-jmh" "$source" >&2
  # First on the classpath: its BenchmarkList, and its CodecJmh if the commit has one of its own.
  echo "$work/before-jmh:$old_cp:$jmh_cp"
}

run_jmh() { # CLASSPATH JSON
  java -cp "$1" org.openjdk.jmh.Main "${opts[@]}" -rf json -rff "$2" "${bench//./\\.}\." >&2
}

if [[ -n "${BEFORE:-}" ]]; then
  before_cp=$(before_classpath)
fi
load_start=$(load_average)
if [[ -n "${BEFORE:-}" ]]; then
  for ((r = 1; r <= runs; r++)); do
    echo "== run $r of $runs: this checkout, then $BEFORE" >&2
    run_jmh "$cp" "$work/now.$r.json"
    run_jmh "$before_cp" "$work/before.$r.json"
  done
  results=("$work"/now.*.json -- "$work"/before.*.json)
else
  run_jmh "$cp" "$work/now.json"
  results=("$work/now.json")
fi
load_end=$(load_average)
table=$(java -cp "$cp" dev.iotpipeline.decoder.codec.CodecJmhReport "${results[@]}")
command="bench/decoder.sh"
[[ -n "${REPORT:-}" ]] && command="REPORT=$REPORT $command"
[[ -n "${BEFORE:-}" ]] && command="BEFORE=$BEFORE${RUNS:+ RUNS=$RUNS} $command"
[[ -n "${JMH_OPTS:-}" ]] && command="JMH_OPTS='$JMH_OPTS' $command"
{
  echo "# Decoder codec benchmark"
  echo
  echo "Command: \`$command\` on this 2-core machine, $(date -u +%Y-%m-%d)."
  echo
  echo "JMH benchmark \`CodecJmh\` (decoder-service's test sources): one codec decoding one payload on one thread, so"
  echo "the figures are per core; the decoder's record handling around it is \`DecoderJmh\`'s, in [jmh.md](jmh.md)."
  echo "Load average (1 min) of the machine: $load_start when the benchmark started, $load_end when it ended; other"
  echo "load only adds time."
  echo
  if [[ -n "${BEFORE:-}" ]]; then
    echo "This checkout against commit \`$BEFORE\` (the same JMH class compiled against that commit's codecs, with"
    echo "this checkout's corpus), $runs run$( ((runs == 1)) || echo s) each, alternating; medians of the runs, and"
    echo "the ratio of the medians."
    echo
  fi
  echo "$table"
  echo
  echo "The JavaScript engine decision (Rhino in its sandbox against GraalJS, on the whole codec corpus) is in"
  echo "[js-engines.md](js-engines.md), from \`bench/js-engines.sh\`."
} > "$report"
cat "$report"
