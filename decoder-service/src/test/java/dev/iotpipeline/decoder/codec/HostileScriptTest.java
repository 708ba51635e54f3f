package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Codecs written to escape the JavaScript sandbox end as an {@link InvalidScriptException} at compile or a
 * {@link CodecException} at decode, within their limits, and leave other codecs decoding.
 */
// Scripts that run are tried compiled and interpreted: a script can force the interpreter on itself (a literal
// Rhino's bytecode generator fails on), so both must hold. The timeout is a safety net in a thread of its own,
// so a hang fails the test instead of the build; no test asserts a duration.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileScriptTest {

    private static final Duration LIMIT = Duration.ofMillis(50);
    private static final long BUDGET = 8L << 20;
    /** For probes that do a lot of legitimate work (eval of many names): they test access, not limits. */
    private static final Duration GENEROUS = Duration.ofSeconds(5);

    enum Mode {
        COMPILED,
        INTERPRETED;

        JavaScriptCodec compile(String source) {
            return compile(source, LIMIT);
        }

        JavaScriptCodec compile(String source, Duration limit) {
            return this == COMPILED
                    ? JavaScriptCodec.compile("hostile", source, limit, BUDGET)
                    : JavaScriptCodec.compileInterpreted("hostile", source, limit, BUDGET);
        }
    }

    static String codec(String body) {
        return "function decodeUplink(input) {\n" + body + "\n}";
    }

    /** Decodes with a generous time limit. */
    static Decoded decode(Mode mode, String body) {
        return mode.compile(codec(body), GENEROUS).decode(new byte[] {1, 2, 3}, 1);
    }

    static Iterable<Arguments> inBothModes(List<String> bodies) {
        var arguments = new ArrayList<Arguments>();
        for (var mode : Mode.values()) {
            bodies.forEach(body -> arguments.add(Arguments.of(mode, body)));
        }
        return arguments;
    }

    @Nested
    class HostAccess {

        @ParameterizedTest
        @ValueSource(
                strings = {
                    "java.lang.System.exit(1);",
                    "var f = new Packages.java.io.File('/etc/passwd');",
                    "java.lang.Runtime.getRuntime().exec('id');",
                    "var T = Java.type('java.lang.Thread');",
                    "new java.lang.Thread(function () {}).start();",
                    "var c = ''.getClass();",
                    "load('/etc/passwd');",
                    "importPackage(java.io);",
                    "importClass(java.net.Socket);",
                    "var io = new JavaImporter(java.io);",
                    "var fs = require('fs');",
                    "var p = input.__proto__;"
                })
        void shouldRefuseAScriptThatNamesJavaOrTheHostWithItsPosition(String body) {
            assertThatThrownBy(() -> JavaScriptCodec.compile("hostile", codec(body), LIMIT))
                    .isInstanceOfSatisfying(InvalidScriptException.class, e -> {
                        assertThat(e).hasMessageContaining("is not available to codecs");
                        assertThat(e.line()).isEqualTo(2);
                        assertThat(e.column()).isPositive();
                    });
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldFindNoHostObjectBehindAComputedName(Mode mode) {
            // The global object three ways, and names the static check cannot see.
            var decoded = decode(mode, """
                    var globals = [this.constructor.constructor('return this')(), Function('return this')(), globalThis];
                    var names = ['Pack' + 'ages', 'ja' + 'va', 'jav' + 'ax', 'Ja' + 'va', 'JavaImp' + 'orter',
                      'JavaAd' + 'apter', 'import' + 'Package', 'import' + 'Class', 'req' + 'uire', 'lo' + 'ad',
                      'loadCl' + 'ass', 'readFile', 'readUrl', 'runCommand', 'spawn', 'sync', 'print', 'quit',
                      'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'XMLHttpRequest',
                      'WebSocket', 'Worker', 'SharedArrayBuffer', 'Atomics', 'process', 'Thread', 'org', 'com', 'net',
                      'edu', 'Poly' + 'glot', 'Graal'];
                    var found = [];
                    globals.forEach(function (g) {
                      names.forEach(function (n) { if (typeof g[n] !== 'undefined') { found.push(n); } });
                    });
                    names.forEach(function (n) {
                      try { if (typeof eval(n) !== 'undefined') { found.push('eval ' + n); } } catch (e) { }
                    });
                    return { data: { probed: names.length }, warnings: found };""");

            assertThat(decoded.attributes()).doesNotContainKey("codecWarnings");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldNotReachAJavaClassThroughAnyValueItIsGiven(Mode mode) {
            var decoded = decode(mode, """
                    var method = 'get' + 'Class';
                    var values = ['', 1, true, [], {}, function () {}, input, input.bytes, input.recvTime, /x/,
                      new Error('e'), Symbol('s'), new Map(), new Uint8Array(1), Promise.resolve(1)];
                    var found = [];
                    values.forEach(function (v, i) {
                      try { if (typeof Object(v)[method] !== 'undefined') { found.push(i); } } catch (e) { }
                    });
                    return { data: { probed: values.length }, warnings: found };""");

            assertThat(decoded.attributes()).doesNotContainKey("codecWarnings");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldExposeNoJavaExceptionOnAnErrorItCatches(Mode mode) {
            // Rhino adds javaException/rhinoException to caught errors when the class shutter lets their class through.
            var decoded = decode(mode, """
                    var found = [];
                    [function () { null.x; }, function () { decodeURIComponent('%'); },
                     function () { new Uint8Array(-1); }, function () { JSON.parse('{'); },
                     function () { undefinedFunction(); }].forEach(function (f) {
                      try { f(); } catch (e) {
                        if (typeof e.javaException !== 'undefined' || typeof e.rhinoException !== 'undefined') {
                          found.push(String(e));
                        }
                      }
                    });
                    return { data: {}, warnings: found };""");

            assertThat(decoded.attributes()).doesNotContainKey("codecWarnings");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldNeverRunAPromiseCallback(Mode mode) {
            // No event loop: a callback cannot outlive its call or run outside the limits.
            var decoded = decode(mode, """
                    var ran = false;
                    Promise.resolve(1).then(function () { ran = true; while (true) { } });
                    return { data: { ran: ran } };""");

            assertThat(decoded.attributes()).containsEntry("ran", false);
        }
    }

    @Nested
    class Cpu {

        static Iterable<Arguments> runaways() {
            return inBothModes(List.of(
                    "while (true) { }",
                    "for (;;) { try { while (true) { } } catch (e) { } }",
                    "while (true) { try { while (true) { } } finally { continue; } }",
                    "while (true) { try { try { while (true) { } } finally { null.x; } } catch (e) { } }",
                    "function spin() { try { while (true) { } } finally { return spin(); } } spin();",
                    "var n = 0; while (true) { n += eval('1 + ' + (n % 7)); }",
                    "var end = Date.now() + 3600000; while (Date.now() < end) { }",
                    "var d = {}; Object.defineProperty(d, 'x', { enumerable: true, get: function () { while (true) { } } });"
                            + " return { data: d };",
                    "var list = []; while (true) { list.sort(function () { while (true) { } }); list.push(1); }"));
        }

        @ParameterizedTest
        @MethodSource("runaways")
        void shouldStopARunawayScriptWithinItsLimits(Mode mode, String body) {
            var script = mode.compile(codec(body));

            // Most end on the time limit; a loop that allocates as it spins may reach its budget first.
            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageMatching(".*(time limit|budget).*");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldStopAnInfiniteLoopThatSwallowsEveryErrorAsATimeout(Mode mode) {
            var script = mode.compile(codec("while (true) { try { while (true) { } } catch (e) { } }"));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecTimeoutException.class)
                    .hasMessageContaining("50 ms of CPU time");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldStopCatastrophicRegexBacktracking(Mode mode) {
            // Rhino's regex engine counts its backtracking steps as instructions, so the limits reach into it.
            var script = mode.compile(codec("return { data: { m: /^(a+)+$/.test('a'.repeat(40) + '!') } };"));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageMatching(".*(time limit|budget).*");
        }

        static Iterable<Arguments> recursions() {
            return inBothModes(List.of(
                    "function f(n) { return f(n + 1) + 1; } return { data: { n: f(0) } };",
                    "function f(n) { try { return f(n + 1); } catch (e) { return f(n + 1); } } return { data: { n: f(0) } };",
                    "var a = [1]; a.push(a); return { data: { n: a.flat(Infinity).length } };"));
        }

        @ParameterizedTest
        @MethodSource("recursions")
        void shouldEndUnboundedRecursionAsACodecException(Mode mode, String body) {
            var script = mode.compile(codec(body));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1)).isInstanceOf(CodecException.class);
        }

        static Iterable<Arguments> unboundedBuiltIns() {
            // Each is one built-in call that walks a length, not the elements, in Java, where no check runs.
            return inBothModes(List.of(
                    "return { data: { n: new Array(1e9).join('ab').length } };",
                    "var a = []; a.length = 4e9; a.reverse(); return { data: {} };",
                    "var a = []; a[4e9] = 1; return { data: { n: a.indexOf(2) } };",
                    "return { data: { n: new Array(2e8).fill(0).length } };",
                    "return { data: { n: Array.from({ length: 2e8 }).length } };",
                    "var a = []; a.length = 1e9; return { data: { n: [...a].length } };",
                    "var a = []; a.length = 1e9; return { data: { n: new Set(a).size } };",
                    "var a = []; a.length = 1e9; return { data: { s: '' + a } };",
                    "var a = []; a.length = 1e9; return { data: { n: [].concat(a).length } };",
                    "var a = []; a.length = 1e9; return { data: { n: [1].flatMap(function () { return a; }).length } };",
                    "var a = []; a.length = 5e7; return { data: { n: String.fromCharCode.apply(null, a).length } };",
                    "var a = []; a.length = 70000; a.sort(); return { data: {} };",
                    "return { data: { n: 'x'.repeat(1 << 29).length } };",
                    "return { data: { n: ''.padStart(1 << 28, 'ab').length } };",
                    "var t = 'a'.repeat(1e6); return { data: { n: t.indexOf('a'.repeat(5e5) + 'b') } };",
                    "var t = 'a'.repeat(4e6); return { data: { n: t.localeCompare(t + 'b') } };"));
        }

        @ParameterizedTest
        @MethodSource("unboundedBuiltIns")
        void shouldRefuseABuiltInCallAboveItsSizeLimit(Mode mode, String body) {
            var script = mode.compile(codec(body));

            // Refused by the guard, or, on a loaded machine where building the operand took longer, by the time
            // limit or the budget first: either way a CodecException and no hang.
            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .satisfies(e -> assertThat(e instanceof CodecTimeoutException
                                    || e.getMessage().contains("allocated more than its budget")
                                    || e.getMessage().contains("RangeError")
                                            && e.getMessage().contains("over the codec limit"))
                            .as(e.getMessage())
                            .isTrue());
        }

        static Iterable<Arguments> unboundedJson() {
            return inBothModes(
                    List.of(
                            "var a = []; a.length = 1e9; return { data: { n: JSON.stringify({ x: a }).length } };",
                            "var a = []; a.length = 1e9; return { data: { n: JSON.stringify({ x: a }, ['x']).length } };",
                            "var a = []; a.length = 1e9; return { data: { n: JSON.stringify({ toJSON: function () { return a; } }) } };"));
        }

        @ParameterizedTest
        @MethodSource("unboundedJson")
        void shouldStopJsonStringifyOnAHugeSparseArrayWithinItsLimits(Mode mode, String body) {
            var script = mode.compile(codec(body));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageMatching(".*(time limit|budget).*");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldStopSpreadingAnIteratorWhoseArrayGrewAfterwards(Mode mode) {
            // The iterator was made while the array was short; each next() from the Java loop is counted.
            var script = mode.compile(
                    codec("var a = [1]; var it = a.values(); a.length = 1e9; return { data: { n: [...it].length } };"));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageMatching(".*(time limit|budget).*");
        }

        @Test
        void shouldRefuseABigIntLiteralWithItsPosition() {
            // x = x * x on a BigInt doubles its size at every step: minutes of CPU in a few operators, unchecked.
            assertThatThrownBy(() ->
                            JavaScriptCodec.compile("hostile", codec("var x = 3n; while (true) { x = x * x; }"), LIMIT))
                    .isInstanceOfSatisfying(InvalidScriptException.class, e -> {
                        assertThat(e).hasMessageContaining("BigInt is not available to codecs");
                        assertThat(e.line()).isEqualTo(2);
                        assertThat(e.column()).isEqualTo(9);
                    });
        }

        static Iterable<Arguments> bigIntsAtRunTime() {
            return inBothModes(List.of(
                    "var x = eval('3' + 'n'); while (true) { x = x * x; }",
                    "var x = Function('return 3' + 'n')(); while (true) { x = x * x; }",
                    "var x = (function () {}).constructor('return 3' + 'n')(); while (true) { x = x * x; }",
                    "var x = this.constructor.constructor('return 3' + 'n')(); while (true) { x = x * x; }"));
        }

        @ParameterizedTest
        @MethodSource("bigIntsAtRunTime")
        void shouldRefuseABigIntInCodeCompiledAtRunTime(Mode mode, String body) {
            var script = mode.compile(codec(body));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageContaining("SyntaxError: BigInt is not available to codecs");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldHaveNoBigIntNorScriptConstructor(Mode mode) {
            var decoded = decode(mode, """
                    var g = Function('return this')();
                    var names = ['Big' + 'Int', 'BigInt' + '64Array', 'BigUint' + '64Array', 'Scr' + 'ipt'];
                    return { data: {}, warnings: names.filter(function (n) { return typeof g[n] !== 'undefined'; }) };""");

            assertThat(decoded.attributes()).doesNotContainKey("codecWarnings");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldStopALoopOfBuiltInCallsEachWithinTheSizeLimit(Mode mode) {
            // Each call's work is counted as instructions, so the limits are checked right after a heavy call.
            var script = mode.compile(codec("while (true) { new Array(1 << 18).fill(1); }"));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageMatching(".*(time limit|budget).*");
        }

        @Test
        void shouldStopARunawayTopLevelAtCompile() {
            assertThatThrownBy(() ->
                            JavaScriptCodec.compile("hostile", "while (true) { }\nfunction decodeUplink(i) {}", LIMIT))
                    .isInstanceOf(InvalidScriptException.class)
                    .hasMessageContaining("top level exceeded its time limit");
        }

        @Test
        void shouldStopALoopOnAVirtualThreadByWallClock() throws Exception {
            // A virtual thread has no CPU-time counter: the limit falls back to wall-clock time.
            var script = Mode.COMPILED.compile(codec("while (true) { }"));
            var failure = new java.util.concurrent.atomic.AtomicReference<Throwable>();

            var thread = Thread.ofVirtual().start(() -> {
                try {
                    script.decode(new byte[] {1}, 1);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            thread.join();

            assertThat(failure.get()).isInstanceOf(CodecTimeoutException.class).hasMessageMatching(".*wall.clock.*");
        }
    }

    @Nested
    class Memory {

        static Iterable<Arguments> hogs() {
            return inBothModes(List.of(
                    "var a = []; while (true) { a.push(new Array(1000).fill(input.bytes[0])); }",
                    "var a = []; while (true) { a.push(new Array(1e6)); a[a.length - 1][0] = a.length; }",
                    "var s = 'x'; for (var i = 0; i < 26; i++) { s += s; } return { data: { c: s.charAt(5) } };",
                    "var m = new Map(); for (var i = 0; ; i++) { m.set('k' + i, { i: i }); }",
                    "var b = []; while (true) { b.push(new Uint8Array(1 << 20)); }",
                    "var o = {}; for (var i = 0; ; i++) { o['p' + i] = 'v' + i; }"));
        }

        @ParameterizedTest
        @MethodSource("hogs")
        void shouldStopAScriptThatAllocatesPastItsBudget(Mode mode, String body) {
            var script = mode.compile(codec(body));

            // A script that allocates slowly may run out of time first; either way the call ends.
            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageMatching(".*(budget of 8 MiB|time limit).*");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldRefuseATypedArrayOverTheBufferLimit(Mode mode) {
            var script = mode.compile(codec("""
                    var Original = new Uint8Array(1).constructor;
                    return { data: { n: new Original(1 << 30).length } };"""));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageContaining("Uint8Array size 1073741824 is over the codec limit");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldStopAScriptAllocatingPastItsBudgetInFewerInstructionsThanACheck(Mode mode) {
            // A few built-in calls that allocate but do not count, then return: no instruction check ran, the check
            // after the call does. A generous time limit: on a loaded machine these calls can take over 50 ms of CPU,
            // and the time limit, checked first, would answer instead of the budget this test is about.
            var script = mode.compile(codec("""
                    var s = 'ж'.repeat(2e6);
                    var u = s.toUpperCase();
                    var l = u.toLowerCase();
                    return { data: { n: l.length } };"""), GENEROUS);

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                    .isInstanceOf(CodecException.class)
                    .hasMessageContaining("budget of 8 MiB");
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldNotLetGlobalsGrowWithoutBoundAcrossCalls(Mode mode) {
            // Each call keeps about 100 KB in a global: the thread's scope is renewed once its calls have allocated
            // one budget in all, so what a script keeps across calls stays within that. A generous time limit: 400
            // interpreted calls on a cold, loaded JVM can take one over 50 ms of CPU, which is not this test's point.
            var script = mode.compile("""
                    var kept = [];
                    function decodeUplink(input) {
                      kept.push(new Array(4096).fill(input.bytes[0]).map(function (v, i) { return v + i; }));
                      return { data: { kept: kept.length } };
                    }""", GENEROUS);
            var kept = new ArrayList<Double>();

            for (int i = 0; i < 400; i++) {
                kept.add(script.decode(new byte[] {7}, 1).measurements().get("kept"));
            }

            assertThat(kept).contains(1.0);
            assertThat(kept.stream().filter(n -> n == 1.0).count())
                    .as("scopes renewed")
                    .isGreaterThan(1);
            assertThat(kept).allMatch(n -> n < 400);
        }

        @Test
        void shouldSurviveAScriptThatDoublesAStringUntilTheHeapIsFull() throws IOException, InterruptedException {
            // Rhino has no string length limit and its + flattens the right operand, so doubling allocates
            // exponentially between two checks; only the JVM's refusal of the next copy ends it. In a JVM of its
            // own with a small heap: that refusal ends the call as a CodecException, and the next codec decodes.
            var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            var process = new ProcessBuilder(
                            java,
                            "-Xmx128m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            HeapExhaustionProbe.class.getName())
                    .redirectErrorStream(true)
                    .start();
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(50, TimeUnit.SECONDS)).isTrue();

            assertThat(process.exitValue()).as(output).isZero();
            assertThat(output.lines()
                            .filter(line -> line.startsWith("hostile: "))
                            .toList())
                    .as(output)
                    .hasSize(2)
                    .allMatch(line -> line.startsWith(
                            "hostile: CodecException: javascript codec doubling ran the JVM " + "out of memory"));
            assertThat(output.lines().filter(line -> line.startsWith("good: ")).toList())
                    .as(output)
                    .containsExactly("good: {value=42.0}", "good: {value=42.0}");
        }
    }

    @Nested
    class Results {

        static Iterable<Arguments> hugeResults() {
            // Reading a result is host work outside the instruction count: its size is bounded instead.
            return inBothModes(List.of(
                    "var a = []; a.length = 4294967295; return { data: { x: 1 }, errors: a };",
                    "var a = []; a.length = 4294967295; return { data: { x: 1 }, warnings: a };",
                    "var a = []; a.length = 4294967295; return { data: { x: a } };",
                    "var a = []; a.length = 20000000; return { data: { x: a } };",
                    "var d = {}; for (var i = 0; i < 20000; i++) { d['k' + i] = i; } return { data: d };",
                    "var d = { a: 1 }; d.self = d; return { data: d };"));
        }

        @ParameterizedTest
        @MethodSource("hugeResults")
        void shouldRefuseAResultTooLargeOrDeepToRead(Mode mode, String body) {
            var script = mode.compile(codec(body));

            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1)).isInstanceOf(CodecException.class);
        }
    }

    @Nested
    class Isolation {

        private static final String GOOD = """
                function decodeUplink(input) {
                  return { data: { temperature: ((input.bytes[0] << 8) | input.bytes[1]) / 100 } };
                }""";
        private static final String BUSY = codec("while (true) { try { while (true) { } } catch (e) { } }");

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldDecodeTheNextMessageOfTheSameCodecAfterItBrokeALimit(Mode mode) {
            var script = mode.compile(codec("""
                    if (input.bytes[0] === 0) { while (true) { } }
                    if (input.bytes[0] === 1) { var a = []; while (true) { a.push(new Array(1000).fill(1)); } }
                    return { data: { value: input.bytes[0] } };"""));

            assertThatThrownBy(() -> script.decode(new byte[] {0}, 1)).isInstanceOf(CodecTimeoutException.class);
            assertThat(script.decode(new byte[] {7}, 1).measurements()).containsEntry("value", 7.0);
            assertThatThrownBy(() -> script.decode(new byte[] {1}, 1)).isInstanceOf(CodecException.class);
            assertThat(script.decode(new byte[] {8}, 1).measurements()).containsEntry("value", 8.0);
        }

        @Test
        void shouldKeepDecodingOtherDeviceTypesWhileAHostileCodecRunsAlongside() throws Exception {
            var hostile = JavaScriptCodec.compile("hostile", BUSY, LIMIT, BUDGET);
            var good = JavaScriptCodec.compile("good", GOOD, LIMIT, BUDGET);
            var builtIn = new Em300thCodec();
            var timeouts = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(4);
            try {
                var tasks = new ArrayList<Callable<Void>>();
                for (int t = 0; t < 2; t++) {
                    tasks.add(() -> {
                        for (int i = 0; i < 5; i++) {
                            assertThatThrownBy(() -> hostile.decode(new byte[] {1}, 1))
                                    .isInstanceOf(CodecTimeoutException.class);
                            timeouts.incrementAndGet();
                        }
                        return null;
                    });
                }
                for (int t = 0; t < 2; t++) {
                    tasks.add(() -> {
                        for (int i = 0; i < 2_000; i++) {
                            var value = i % 5_000;
                            assertThat(good.decode(new byte[] {(byte) (value >> 8), (byte) value}, 1)
                                            .measurements())
                                    .containsEntry("temperature", value / 100.0);
                            assertThat(builtIn.decode(java.util.HexFormat.of().parseHex("0367" + "1001"), 85)
                                            .measurements())
                                    .containsEntry("temperature", 27.2);
                        }
                        return null;
                    });
                }
                for (Future<Void> result : threads.invokeAll(tasks)) {
                    result.get();
                }
            } finally {
                threads.shutdownNow();
            }

            assertThat(timeouts).hasValue(10);
        }

        @ParameterizedTest
        @EnumSource(Mode.class)
        void shouldAlternateHostileAndGoodCodecsOnOneThread(Mode mode) {
            var hostile = mode.compile(BUSY);
            var good = mode.compile(GOOD);

            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> hostile.decode(new byte[] {1}, 1)).isInstanceOf(CodecTimeoutException.class);
                assertThat(good.decode(new byte[] {0x09, (byte) 0xC4}, 1).measurements())
                        .containsEntry("temperature", 25.0);
            }
        }
    }

    @Nested
    class Compile {

        @Test
        void shouldRefuseAScriptNestedTooDeeplyForTheParser() {
            var source = "var x = " + "(".repeat(60_000) + "1" + ")".repeat(60_000)
                    + ";\nfunction decodeUplink(i) { return { data: {} }; }";

            assertThatThrownBy(() -> JavaScriptCodec.compile("hostile", source, LIMIT))
                    .isInstanceOf(InvalidScriptException.class);
        }

        @Test
        void shouldRefuseATopLevelThatAllocatesPastTheBudget() {
            assertThatThrownBy(() -> JavaScriptCodec.compile(
                            "hostile",
                            "var a = []; while (true) { a.push(new Array(1000).fill(1)); }\nfunction decodeUplink(i) {}",
                            Duration.ofSeconds(10),
                            BUDGET))
                    .isInstanceOf(InvalidScriptException.class)
                    .hasMessageContaining("top level allocated more than its budget of 8 MiB");
        }

        @Test
        void shouldRefuseAScriptThatReplacesDecodeUplinkWithSomethingElse() {
            assertThatThrownBy(() -> JavaScriptCodec.compile(
                            "hostile", "function decodeUplink(i) { return {}; }\ndecodeUplink = 42;", LIMIT))
                    .isInstanceOf(InvalidScriptException.class)
                    .hasMessageContaining("decodeUplink");
        }
    }
}
