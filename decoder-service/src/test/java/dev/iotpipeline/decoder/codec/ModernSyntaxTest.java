package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Scripts in syntax Rhino's parser refuses run after Closure rewrites them, in the same sandbox and limits. */
class ModernSyntaxTest {

    private static final Duration LIMIT = Duration.ofMillis(200);

    private static JavaScriptCodec compile(String source) {
        return JavaScriptCodec.compile("modern", source, LIMIT);
    }

    @Test
    void shouldRunClassesWithGettersStaticMethodsAndInheritance() {
        var codec = compile("""
                class Reading {
                  constructor(raw) { this.raw = raw; }
                  get celsius() { return this.raw / 10; }
                  kelvin() { return this.celsius + 273.15; }
                  static of(bytes) { return new this((bytes[0] << 8) | bytes[1]); }
                }
                class Calibrated extends Reading {
                  constructor(raw, offset) { super(raw); this.offset = offset; }
                  kelvin() { return super.kelvin() + this.offset; }
                }
                function decodeUplink(input) {
                  const r = new Calibrated(Reading.of(input.bytes).raw, 0.5);
                  return { data: { temperature: r.celsius, kelvin: r.kelvin() } };
                }""");

        assertThat(codec.decode(new byte[] {0, (byte) 215}, 1).measurements())
                .containsEntry("temperature", 21.5)
                .containsEntry("kelvin", 21.5 + 273.15 + 0.5);
    }

    @Test
    void shouldRunForOfOverConstSpreadArgumentsAndConstRedeclaredInSiblingBlocks() {
        var codec = compile("""
                function decodeUplink(input) {
                  const data = {};
                  switch (input.fPort) {
                    case 1: { const v = Math.max(...input.bytes); data.max = v; break; }
                    case 2: { const v = Math.min(...input.bytes); data.min = v; break; }
                  }
                  let sum = 0;
                  for (const b of input.bytes) { sum += b; }
                  const [first, ...rest] = input.bytes;
                  return { data: { ...data, sum, first, rest: rest.length, text: String.fromCharCode(...[72, 105]) } };
                }""");

        var decoded = codec.decode(new byte[] {3, 9, 4}, 1);

        assertThat(decoded.measurements())
                .containsEntry("max", 9.0)
                .containsEntry("sum", 16.0)
                .containsEntry("first", 3.0)
                .containsEntry("rest", 2.0);
        assertThat(decoded.attributes()).containsEntry("text", "Hi");
    }

    @Test
    void shouldRunGeneratorsAndTheVendorModuleExportsGuard() {
        var codec = compile("""
                function* pairs(bytes) { for (let i = 0; i + 1 < bytes.length; i += 2) yield [bytes[i], bytes[i + 1]]; }
                const decodeUplink = (input) => ({ data: { readings: [...pairs(input.bytes)].map(([k, v]) => ({ k, v })) } });
                if (typeof module !== 'undefined') { module.exports = { decodeUplink }; }""");

        assertThat(codec.decode(new byte[] {1, 2, 3, 4}, 1).measurements())
                .containsEntry("readings.0.k", 1.0)
                .containsEntry("readings.1.v", 4.0);
    }

    @Test
    void shouldKeepTheTimeLimitForRewrittenScripts() {
        var codec = compile("""
                class Spinner { spin() { for (;;) { } } }
                function decodeUplink(input) { new Spinner().spin(); }""");

        assertThatThrownBy(() -> codec.decode(new byte[] {1}, 1)).isInstanceOf(CodecTimeoutException.class);
    }

    @Test
    void shouldReportASyntaxErrorInModernCodeAtItsPositionInTheOriginal() {
        assertThatThrownBy(() -> compile("class A {}\nfunction decodeUplink(input) {\n  const x = ;\n}"))
                .isInstanceOfSatisfying(InvalidScriptException.class, e -> {
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.column()).isPositive();
                });
    }

    @Test
    void shouldRefuseAHostNameInModernCodeAtItsPositionInTheOriginal() {
        assertThatThrownBy(() ->
                        compile("class A {}\nfunction decodeUplink(input) {\n  return java.lang.System.exit(1);\n}"))
                .isInstanceOfSatisfying(InvalidScriptException.class, e -> {
                    assertThat(e).hasMessageContaining("'java' is not available to codecs");
                    assertThat(e.line()).isEqualTo(3);
                    assertThat(e.column()).isEqualTo(10);
                });
    }

    @Test
    void shouldRefuseABigIntInModernCode() {
        assertThatThrownBy(
                        () -> compile("class A {}\nfunction decodeUplink(input) { let x = 3n; return { data: {} }; }"))
                .isInstanceOf(InvalidScriptException.class);
    }
}
