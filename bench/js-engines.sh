#!/usr/bin/env bash
# The JavaScript engine decision (issue 13), measured on the codec corpus: decoder-service's JavaScriptCodec
# (Rhino 1.9.2, sandboxed, Closure's ES5 rewrite for syntax Rhino refuses) against GraalJS 25 community on a
# stock JDK (interpreter only) and with its optimizing runtime (module path + JVMCI), then whether each stops a
# runaway script. Writes docs/benchmarks/js-engines.md. Usage: [ROUNDS=5] [MILLIS=1000] bench/js-engines.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
cp=$(bench_classpath decoder-service)
./mvnw -B -q -f bench/js-engines/pom.xml dependency:copy-dependencies -DoutputDirectory=target/lib >&2
graal_cp=$(ls bench/js-engines/target/lib/*.jar | grep -v -e rhino -e '/compiler-' | paste -sd:)
compiler=$(ls bench/js-engines/target/lib/compiler-*.jar)
corpus=decoder-service/src/test/resources/codecs/corpus
src=bench/js-engines/EngineBench.java
rounds=${ROUNDS:-5}
millis=${MILLIS:-1000}
out=docs/benchmarks/js-engines.md
jit=(-XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI "--upgrade-module-path=$compiler" "--module-path=$graal_cp"
  --add-modules=org.graalvm.polyglot)
header() {
  echo "| codec | source chars | build ms (cold, first codec pays the engine's start) | decodes/s on one thread (median of $rounds × ${millis} ms) | µs per decode |"
  echo "|---|---|---|---|---|"
}
{
  echo "# JavaScript engines on the codec corpus"
  echo
  echo "Command: \`bench/js-engines.sh\` on this 2-core machine ($(java -version 2>&1 | head -1)), one thread,"
  echo "nothing else running; $(date -u +%Y-%m-%d). Corpus: \`$corpus\` (16 codecs written for this project in"
  echo "vendor styles, first example of each). Each engine runs in a JVM of its own."
  echo
  echo "## iot-pipeline JavaScriptCodec: Rhino 1.9.2 compiled mode, sandboxed (instruction-counted limits, guarded built-ins), Closure ES5 rewrite where Rhino's parser refuses the syntax"
  echo
  header
  java -cp "$cp:$graal_cp" "$src" corpus "$corpus" rhino "$rounds" "$millis" 2>/dev/null
  echo
  echo "## GraalJS 25.0.2 community, stock JDK (no JVMCI: interpreter only), HostAccess.NONE, context reused, result as JSON"
  echo
  header
  java -cp "$cp:$graal_cp" "$src" corpus "$corpus" graal "$rounds" "$millis" 2>/dev/null
  echo
  echo "## GraalJS 25.0.2 community with its optimizing runtime (module path, JVMCI, Graal compiler jar)"
  echo
  header
  java "${jit[@]}" -cp "$cp" "$src" corpus "$corpus" graal "$rounds" "$millis" 2>/dev/null
  echo
  echo "## Stopping a runaway script"
  echo
  echo "Each case is a \`decodeUplink\` body; the engine gets 100 ms, then JavaScriptCodec's own limit strikes"
  echo "(Rhino) or the context is cancelled with \`Context.close(true)\` (GraalJS, what its community edition offers)."
  echo "Time from the call's start until it returned; each case in a fresh JVM, given 5 s after its start."
  echo
  echo "| body | Rhino (JavaScriptCodec): stopped after | outcome | GraalJS: stopped after | outcome |"
  echo "|---|---|---|---|---|"
  n=$(java -cp "$cp:$graal_cp" "$src" hostile-count)
  for ((i = 0; i < n; i++)); do
    r=$(timeout 30 java -cp "$cp:$graal_cp" "$src" hostile rhino "$i" 2>/dev/null | tail -1)
    g=$(timeout 30 java -cp "$cp:$graal_cp" "$src" hostile graal "$i" 2>/dev/null | tail -1)
    echo "${r%|}| $(echo "$g" | cut -d'|' -f3-)"
  done
} > "$out"
cat "$out"
