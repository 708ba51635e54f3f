package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.fuzz.Fuzz;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The host boundary of JavaScript codecs: whatever a script returns or throws (nested objects and arrays, NaN,
 * Infinity, huge strings, undefined, functions, symbols, cyclic objects, getters and toString that throw,
 * dates, regexps, sparse arrays, proxies) and whatever bytes it is given, {@link JavaScriptCodec#decode} returns
 * a decoding of finite measurements and serializable attributes or throws exactly {@link CodecException}
 * ({@link CodecTimeoutException} for the time limit); nothing else escapes and nothing hangs.
 *
 * <p>The scripts are fixed and compiled once; the values come from the input: {@code builder.js} reads the
 * payload as a small program that builds the value to return, so arbitrary bytes are arbitrary values.
 */
class JavaScriptCodecPropertiesTest {

    static final Duration TIME_LIMIT = Duration.ofMillis(100);

    /** Builds a value from the input bytes: each byte picks what comes next (see the switch). */
    static final String BUILDER = """
            function decodeUplink(input) {
              var b = input.bytes, i = 0;
              function next() { return i < b.length ? b[i++] : 0; }
              var KEYS = ['a', '', 'constructor', 'toString', 'valueOf', 'length', '0', '7', '1e3', 'NaN', 'x.y',
                  '\\ud800', '\\u00e9', 'hasOwnProperty', 'data', 'errors', 'prototype', 'then', 'a.b.c'];
              function text() {
                var n = next() % 24, s = '';
                for (var k = 0; k < n; k++) { s += String.fromCharCode(next() * 256 + next()); }
                return s;
              }
              function key() { var k = next(); return k < 200 ? KEYS[k % KEYS.length] : text(); }
              function object(depth) {
                var m = next() % 6, obj = {};
                for (var k = 0; k < m; k++) { obj[key()] = build(depth + 1); }
                return obj;
              }
              function build(depth) {
                var tag = next() % 30;
                if (depth > 5 && tag >= 20) { tag = tag % 20; }
                switch (tag) {
                  case 0: case 1: return next() - 128;
                  case 2: return (next() * 256 + next()) / (next() + 1) - 100;
                  case 3: return NaN;
                  case 4: return Infinity;
                  case 5: return -Infinity;
                  case 6: return undefined;
                  case 7: return null;
                  case 8: return next() % 2 === 0;
                  case 9: return text();
                  case 10: return 'x'.repeat(next() * 1024);
                  case 11: return Math.pow(10, next() + 200) * (next() % 2 ? 1 : -1);
                  case 12: return -0;
                  case 13: return function () { return 1; };
                  case 14: return Symbol(text());
                  case 15: return new Date(next() * 1e13 - 1e15);
                  case 16: return /fuzz/g;
                  case 17: return { get boom() { throw new Error('getter'); } };
                  case 18: return { toString: function () { throw new Error('toString'); },
                                    valueOf: function () { throw new Error('valueOf'); } };
                  case 19: { var sparse = []; sparse[next() * 16 + next()] = 1; return sparse; }
                  case 20: case 21: case 22: {
                    var n = next() % 6, arr = [];
                    for (var k = 0; k < n; k++) { arr.push(build(depth + 1)); }
                    return arr;
                  }
                  case 23: case 24: case 25: return object(depth);
                  case 26: { var self = { n: next() }; self.self = self; self.list = [self]; return self; }
                  case 27: { var sym = {}; sym[Symbol('k')] = build(depth + 1); sym.v = next(); return sym; }
                  case 28: return typeof Proxy === 'function'
                      ? new Proxy({ a: 1 }, { get: function () { throw new Error('proxy get'); },
                                              ownKeys: function () { throw new Error('proxy keys'); } })
                      : null;
                  default: return Object.create(null);
                }
              }
              var mode = next() % 8;
              if (mode === 0) { return build(0); }
              if (mode === 1) { throw build(0); }
              var out = { data: mode === 2 ? build(0) : object(0) };
              if (mode >= 5) { out.warnings = build(1); }
              if (mode >= 6) { out.errors = build(1); }
              return out;
            }
            """;

    /** Reads the input as given: length, bytes, fPort, receive time, and arithmetic on them. */
    static final String ECHO = """
            function decodeUplink(input) {
              var b = input.bytes;
              return { data: { n: b.length, first: b[0], last: b[b.length - 1], ratio: b[0] / b[1], port: input.fPort,
                               portPlus: input.fPort + 1, when: input.recvTime, year: input.recvTime.getFullYear(),
                               bytes: b, text: String.fromCharCode.apply(null, b), sum: b.reduce(function (s, x) { return s + x; }, 0) },
                       warnings: b.length > 3 ? ['long ' + b.length] : [] };
            }
            """;

    /** Runs into a limit chosen by the first byte: time, allocation, recursion, or the stack of a deep value. */
    static final String LIMITS = """
            function decodeUplink(input) {
              var b = input.bytes, what = b.length ? b[0] % 6 : 0, size = b.length > 1 ? b[1] : 0;
              if (what === 0) { while (true) { } }
              if (what === 1) { var hog = []; while (true) { hog.push('x'.repeat(1000) + hog.length); } }
              if (what === 2) { var r = function (n) { return r(n + 1) + 1; }; return { data: { v: r(0) } }; }
              if (what === 3) { try { while (true) { } } catch (e) { return { data: { caught: 1 } }; } }
              if (what === 4) { var deep = {}, at = deep; for (var k = 0; k < size * 40; k++) { at.c = {}; at = at.c; }
                                return { data: deep }; }
              var list = []; for (var j = 0; j < size; j++) { list.push([j, 'w' + j]); }
              return { data: { list: list }, warnings: list };
            }
            """;

    private final Map<String, JavaScriptCodec> scripts = Map.of(
            "builder", JavaScriptCodec.compile("builder", BUILDER, TIME_LIMIT),
            "echo", JavaScriptCodec.compile("echo", ECHO, TIME_LIMIT),
            "limits", JavaScriptCodec.compile("limits", LIMITS, TIME_LIMIT),
            "em300th-ttn-style",
                    JavaScriptCodec.compile(
                            "em300th-ttn-style", resource("/scripts/em300th-ttn-style.js"), TIME_LIMIT));

    /** A codec call's input; shown as hex in a failure report. */
    record Input(String script, byte[] bytes, Integer fPort) {
        @Override
        public String toString() {
            return script + " fPort=" + fPort + " bytes=" + HexFormat.of().formatHex(bytes);
        }
    }

    @Property
    void aScriptResultIsADecodingOrACodecException(@ForAll("inputs") Input input) {
        var codec = scripts.get(input.script());
        var decoded = Fuzz.expect(
                input.script(),
                () -> codec.decode(input.bytes(), input.fPort()),
                CodecException.class,
                e -> (e.getClass() == CodecException.class
                                || e.getClass() == CodecTimeoutException.class
                                || e.getClass() == CodecErrorsException.class)
                        && e.getMessage() != null,
                e -> input.script() + ": "
                        + (e.getMessage().contains("time limit")
                                ? "time limit"
                                : e.getMessage().contains("budget")
                                        ? "allocation budget"
                                        : e.getMessage().contains("recursion")
                                                ? "recursion"
                                                : e.getMessage().contains("returned no") ? "no data" : "script error"));
        if (decoded != null) {
            assertThat(decoded.measurements().values())
                    .allSatisfy(value -> assertThat(value).isFinite());
            assertThat(EventJson.write(decoded)).isNotEmpty();
        }
    }

    @Provide
    Arbitrary<Input> inputs() {
        var bytes = Arbitraries.bytes().array(byte[].class);
        var fPorts = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(null)),
                Tuple.of(4, Arbitraries.integers().between(0, 255)));
        // The limits script's first byte picks the limit; time, allocation and recursion cost up to the time
        // limit each, so they are drawn rarely, the cheap deep-value and long-list cases more often.
        var slowLimit = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.bytes(), fPorts)
                .as((what, size, fPort) -> new Input("limits", new byte[] {what.byteValue(), size}, fPort))
                .withoutEdgeCases();
        var cheapLimit = Combinators.combine(Arbitraries.integers().between(4, 5), Arbitraries.bytes(), fPorts)
                .as((what, size, fPort) -> new Input("limits", new byte[] {what.byteValue(), size}, fPort));
        return Arbitraries.frequencyOf(
                Tuple.of(
                        72,
                        Combinators.combine(Arbitraries.just("builder"), bytes.ofMaxSize(96), fPorts)
                                .as(Input::new)),
                Tuple.of(
                        18,
                        Combinators.combine(Arbitraries.of("echo", "em300th-ttn-style"), bytes.ofMaxSize(40), fPorts)
                                .as(Input::new)),
                Tuple.of(6, cheapLimit),
                Tuple.of(1, slowLimit));
    }

    private static String resource(String name) {
        try (var in = JavaScriptCodecPropertiesTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
