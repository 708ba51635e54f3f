package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JavaScriptCodecTest {

    private static final Duration LIMIT = Duration.ofMillis(100);

    @Test
    void shouldDecodeTheSameVectorsAsTheBuiltInCodec() throws IOException {
        var script = JavaScriptCodec.compile("em300th-js", resource("/scripts/em300th-ttn-style.js"), LIMIT);
        var builtIn = new Em300thCodec();

        for (var hex : new String[] {"01755C03673401046865", "0175640367CEFF046850", "03671001046860"}) {
            var bytes = HexFormat.of().parseHex(hex);
            assertThat(script.decode(bytes, 85).measurements())
                    .as(hex)
                    .isEqualTo(builtIn.decode(bytes, 85).measurements());
        }
    }

    @Test
    void shouldTurnCodecErrorsIntoAFailureWithTheirText() throws IOException {
        var script = JavaScriptCodec.compile("em300th-js", resource("/scripts/em300th-ttn-style.js"), LIMIT);

        assertThatThrownBy(() -> script.decode(HexFormat.of().parseHex("0999AA"), 85))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("reported errors: unknown channel 9 type 153 at byte 0");
    }

    @Test
    void shouldKeepWarningsAndNonNumericValuesAsAttributes() throws IOException {
        var script = JavaScriptCodec.compile("em300th-js", resource("/scripts/em300th-ttn-style.js"), LIMIT);

        var decoded = script.decode(HexFormat.of().parseHex("01755C"), 1);

        assertThat(decoded.measurements()).containsEntry("battery", 92.0);
        assertThat(decoded.attributes()).containsEntry("codecWarnings", java.util.List.of("unexpected fPort 1"));
    }

    @Test
    void shouldFlattenNestedNumbersAndKeepStrings() {
        var script = JavaScriptCodec.compile("nested", """
                function decodeUplink(input) {
                  return { data: { air: { temperature: 21.5 }, status: 'ok', open: true, n: input.bytes.length } };
                }""", LIMIT);

        var decoded = script.decode(new byte[] {1, 2, 3}, 1);

        assertThat(decoded.measurements())
                .containsEntry("air.temperature", 21.5)
                .containsEntry("n", 3.0);
        assertThat(decoded.attributes()).containsEntry("status", "ok").containsEntry("open", true);
    }

    @Test
    void shouldStopAnInfiniteLoopWithinTheLimitAndDecodeTheNextMessage() {
        var script = JavaScriptCodec.compile("loop", """
                function decodeUplink(input) {
                  if (input.bytes[0] === 0) { while (true) { try { } catch (e) { } } }
                  return { data: { value: input.bytes[0] } };
                }""", LIMIT);

        long started = System.nanoTime();
        assertThatThrownBy(() -> script.decode(new byte[] {0}, 1))
                .isInstanceOf(CodecTimeoutException.class)
                .hasMessageContaining("time limit of 100 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));

        assertThat(script.decode(new byte[] {7}, 1).measurements()).containsEntry("value", 7.0);
    }

    @Test
    void shouldStopAScriptThatAllocatesBeyondItsBudget() {
        var script = JavaScriptCodec.compile("hog", """
                function decodeUplink(input) {
                  var all = [];
                  while (true) { all.push(new Array(1000).fill(input.bytes[0])); }
                }""", Duration.ofSeconds(30), 8L << 20);

        assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                .isInstanceOf(CodecException.class)
                .isNotInstanceOf(CodecTimeoutException.class)
                .hasMessageContaining("budget of 8 MiB");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "function decodeUplink(input) { return { data: { t: java.lang.System.currentTimeMillis() } }; }",
                "function decodeUplink(input) { var T = Java.type('java.lang.Runtime'); return { data: {} }; }",
                "var fs = require('fs');\nfunction decodeUplink(input) { return { data: {} }; }",
                "function decodeUplink(input) { return { data: { c: input.getClass() } }; }",
                "function decodeUplink(input) { importPackage(java.io); return { data: {} }; }"
            })
    void shouldRefuseScriptsThatReachForTheHost(String source) {
        assertThatThrownBy(() -> JavaScriptCodec.compile("evil", source, LIMIT))
                .isInstanceOf(InvalidScriptException.class)
                .hasMessageContaining("is not available to codecs");
    }

    @Test
    void shouldReportTheEnginesSyntaxErrorWithItsPosition() {
        assertThatThrownBy(() -> JavaScriptCodec.compile(
                        "broken", "function decodeUplink(input) {\n  return { data: ;\n}", LIMIT))
                .isInstanceOfSatisfying(InvalidScriptException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isPositive();
                });
    }

    @Test
    void shouldRequireADecodeUplinkFunction() {
        assertThatThrownBy(() -> JavaScriptCodec.compile("none", "function decode(bytes) { return {}; }", LIMIT))
                .isInstanceOf(InvalidScriptException.class)
                .hasMessageContaining("decodeUplink");
    }

    @Test
    void shouldNotLetAScriptReachJavaThroughAnyDoor() {
        var script = JavaScriptCodec.compile("probe", """
                function decodeUplink(input) {
                  var found = [];
                  ['Packages', 'java', 'JavaImporter', 'Java', 'require', 'load', 'print'].forEach(function (n) {
                    try { if (typeof eval(n) !== 'undefined') { found.push(n); } } catch (e) { }
                  });
                  return { data: {}, warnings: found };
                }""", LIMIT);

        var decoded = script.decode(new byte[] {1}, 1);

        assertThat(decoded.attributes()).doesNotContainKey("codecWarnings");
    }

    @Test
    void shouldAcceptACatchWithoutBinding() {
        // ES2019 optional catch binding, as vendor codecs write it; Rhino's AST walk used to throw an NPE on it.
        var script = JavaScriptCodec.compile("optional-catch", """
                function decodeUplink(input) {
                  var value;
                  try {
                    value = readInt16(input.bytes, 0);
                  } catch {
                    return { errors: ['payload too short'] };
                  }
                  return { data: { value: value } };
                }
                function readInt16(bytes, at) {
                  if (bytes.length < at + 2) { throw new Error('short'); }
                  var v = (bytes[at] << 8) | bytes[at + 1];
                  return v > 0x7fff ? v - 0x10000 : v;
                }""", LIMIT);

        assertThat(script.decode(new byte[] {(byte) 0xFF, (byte) 0xFE}, 1).measurements())
                .containsEntry("value", -2.0);
        assertThatThrownBy(() -> script.decode(new byte[] {1}, 1))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("payload too short");
    }

    @Test
    void shouldRunInTheInterpreterAScriptRhinosBytecodeGeneratorFailsOn() {
        // A lookup table filled inside a do/while, vendor style: Rhino 1.9.2's bytecode generator fails on it
        // with an IllegalStateException from its stack map ("FAILED ASSERTION"), the interpreter runs it.
        var table =
                IntStream.range(0, 5_000).mapToObj(i -> String.valueOf(i % 251)).collect(Collectors.joining(","));
        var script = JavaScriptCodec.compile("big-table", """
                function decodeUplink(input) {
                  var table;
                  do {
                    table = [%s];
                  } while (false);
                  return { data: { level: table[input.bytes[0] * 10 + input.bytes[1]] } };
                }""".formatted(table), LIMIT);

        assertThat(script.interpreted())
                .as("compiled mode failed on the script")
                .isTrue();
        assertThat(script.decode(new byte[] {30, 7}, 1).measurements()).containsEntry("level", (double) (307 % 251));
    }

    @Test
    void shouldRunInTheInterpreterAScriptTooComplexForTheBytecodeGenerator() {
        // 3,000 object literals in one function: "Program too complex (out of locals)" in compiled mode.
        var rows = IntStream.range(0, 3_000)
                .mapToObj(i -> "{ id: " + i + ", factor: " + (i % 10) / 10.0 + " }")
                .collect(Collectors.joining(",\n"));
        var script = JavaScriptCodec.compile("many-rows", """
                function decodeUplink(input) {
                  var rows = [%s];
                  var row = rows[input.bytes[0]];
                  return { data: { id: row.id, factor: row.factor } };
                }""".formatted(rows), LIMIT);

        assertThat(script.interpreted()).isTrue();
        assertThat(script.decode(new byte[] {23}, 1).measurements())
                .containsEntry("id", 23.0)
                .containsEntry("factor", 0.3);
    }

    @Test
    void shouldRefuseAScriptOverTheSizeLimitBeforeCompilingIt() {
        var source = "function decodeUplink(input) { return { data: {} }; }\n// " + "x".repeat(300 * 1024);

        assertThatThrownBy(() -> JavaScriptCodec.compile("huge", source, LIMIT))
                .isInstanceOfSatisfying(InvalidScriptException.class, e -> {
                    assertThat(e)
                            .hasMessageContaining("over the limit of 256 KiB")
                            .hasMessageContaining("decoder.codecs.script-size-limit");
                    assertThat(e.line()).isEqualTo(InvalidScriptException.UNKNOWN);
                });
    }

    @Test
    void shouldApplyTheConfiguredSizeLimitInUtf8Bytes() {
        var codecs = new Codecs(
                LIMIT, JavaScriptCodec.DEFAULT_ALLOCATION_LIMIT, 1024, JavaScriptCodec.DEFAULT_COMPILE_TIME_LIMIT);
        // 400 characters, 1,200 UTF-8 bytes.
        var source = "function decodeUplink(input) { return { data: {} }; }\n// " + "€".repeat(400);

        assertThatThrownBy(() -> codecs.resolve(new dev.iotpipeline.events.DeviceType(
                        "big", 1, "javascript", source, java.util.Map.of(), null, java.time.Instant.EPOCH)))
                .isInstanceOf(InvalidScriptException.class)
                .hasMessageContaining("over the limit of 1 KiB");
    }

    @Test
    void shouldReportAnExceptionOfTheTopLevelWithItsLine() {
        assertThatThrownBy(() ->
                        JavaScriptCodec.compile("throws", "var x = 1;\nnull.y;\nfunction decodeUplink(i) {}", LIMIT))
                .isInstanceOfSatisfying(
                        InvalidScriptException.class, e -> assertThat(e.line()).isEqualTo(2));
    }

    @Test
    void shouldReadAResultThatChangesWhileTheHostReadsIt() {
        // The getter empties the array while the host reads it; items are read by index up to the length seen
        // first, so what is gone reads as undefined instead of failing in Java.
        var script = JavaScriptCodec.compile("shrinking", """
                function decodeUplink(input) {
                  var list = [1, 2];
                  Object.defineProperty(list, 0, { get: function () { list.length = 0; return 5; } });
                  return { data: { list: list } };
                }""", LIMIT);

        assertThat(script.decode(new byte[] {1}, 1).measurements())
                .containsOnlyKeys("list.0")
                .containsEntry("list.0", 5.0);
    }

    private static String resource(String path) throws IOException {
        try (var in = JavaScriptCodecTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
