package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every script form vendors publish, and every output shape, flattened as docs/codecs.md documents. */
class ScriptFormsTest {

    private static JavaScriptCodec compile(String source) {
        return JavaScriptCodec.compile("forms", source, Duration.ofMillis(500));
    }

    @Test
    void arraysOfObjectsAndNumbersKeepEveryLeafUnderItsIndex() {
        var codec = compile("""
                function decodeUplink(input) {
                  return { data: {
                    readings: [ { t: 21.5, unit: "C" }, { t: 22 } ],
                    list: [1, 2],
                    flags: [true],
                    at: new Date(0),
                    nothing: null,
                    notANumber: NaN,
                    infinite: 1 / 0
                  } };
                }""");

        var decoded = codec.decode(new byte[] {1}, 1);

        assertThat(decoded.measurements())
                .containsEntry("readings.0.t", 21.5)
                .containsEntry("readings.1.t", 22.0)
                .containsEntry("list.0", 1.0)
                .containsEntry("list.1", 2.0)
                .hasSize(4);
        assertThat(decoded.attributes())
                .containsEntry("readings.0.unit", "C")
                .containsEntry("flags.0", true)
                .containsEntry("at", "1970-01-01T00:00:00.000Z")
                .doesNotContainKeys("nothing", "notANumber", "infinite");
        assertThat(decoded.attributes().values())
                .noneMatch(v -> String.valueOf(v).contains("[object Object]"));
    }

    @Test
    void aTtnV2DecoderGetsBytesAndPortAndReturnsTheFieldsThemselves() {
        var codec = compile("""
                function Decoder(bytes, port) {
                  var decoded = {};
                  decoded.temperature = ((bytes[0] << 8) | bytes[1]) / 100;
                  decoded.port = port;
                  return decoded;
                }""");

        assertThat(codec.form()).isEqualTo(JavaScriptCodec.Form.TTN_V2);
        assertThat(codec.decode(new byte[] {0x08, (byte) 0x98}, 3).measurements())
                .containsEntry("temperature", 22.0)
                .containsEntry("port", 3.0);
    }

    @Test
    void aChirpStackV3DecodeGetsPortBytesAndVariables() {
        var codec = compile("""
                function Decode(fPort, bytes, variables) {
                  return { humidity: bytes[0] / 2, fPort: fPort, hasVariables: typeof variables === "object" };
                }""");

        assertThat(codec.form()).isEqualTo(JavaScriptCodec.Form.CHIRPSTACK_V3);
        var decoded = codec.decode(new byte[] {101}, 85);
        assertThat(decoded.measurements()).containsEntry("humidity", 50.5).containsEntry("fPort", 85.0);
        assertThat(decoded.attributes()).containsEntry("hasVariables", true);
    }

    private static final String WIND = """
            // knots and compass points, as the vendor's manual writes them; normalized: m/s and degrees
            var POINTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
            function decodeUplink(input) {
              return { data: { direction: POINTS[input.bytes[0]], speed: input.bytes[1], gust: input.bytes[2] },
                       warnings: ["gust is estimated"] };
            }
            function normalizeUplink(input) {
              return { data: { wind: { direction: POINTS.indexOf(input.data.direction) * 45,
                                       speed: Math.round(input.data.speed * 0.514444 * 100) / 100 } },
                       warnings: ["no gust in the normalized schema"] };
            }""";

    @Test
    void bothOutputsAreKeptTheDecodedOneUnderItsOwnNamesAndTheNormalizedOneUnderNormalized() {
        var codec = compile(WIND);

        var decoded = codec.decode(new byte[] {1, 32, 40}, 1);

        assertThat(codec.form()).isEqualTo(JavaScriptCodec.Form.DECODE_UPLINK);
        assertThat(codec.primary()).isEqualTo(PrimaryOutput.DECODED);
        assertThat(decoded.measurements())
                .containsExactly(
                        entry("speed", 32.0),
                        entry("gust", 40.0),
                        entry("normalized.wind.direction", 45.0),
                        entry("normalized.wind.speed", 16.46));
        assertThat(decoded.attributes())
                .containsExactly(
                        entry("direction", "NE"),
                        entry("codecWarnings", List.of("gust is estimated", "no gust in the normalized schema")));
    }

    @Test
    void withTheNormalizedOutputPrimaryTheDecodedOneRidesUnderDecoded() {
        var codec = compile(WIND).storing(PrimaryOutput.NORMALIZED);

        var decoded = codec.decode(new byte[] {4, 10, 12}, 1);

        assertThat(decoded.measurements())
                .containsExactly(
                        entry("wind.direction", 180.0),
                        entry("wind.speed", 5.14),
                        entry("decoded.speed", 10.0),
                        entry("decoded.gust", 12.0));
        assertThat(decoded.attributes())
                .containsEntry("decoded.direction", "S")
                .containsEntry("codecWarnings", List.of("gust is estimated", "no gust in the normalized schema"));
    }

    @Test
    void aNameBothOutputsClaimKeepsThePrimaryValueAndTheOtherIsNamedInAWarning() {
        var codec = compile("""
                function decodeUplink(input) { return { data: { normalized: { t: 1 }, t: 2 } }; }
                function normalizeUplink(input) { return { data: { t: 3 } }; }""");

        var decoded = codec.decode(new byte[] {0}, 1);

        assertThat(decoded.measurements()).containsExactly(entry("normalized.t", 1.0), entry("t", 2.0));
        assertThat(decoded.attributes())
                .containsEntry(
                        "codecWarnings",
                        List.of("normalized.t (3.0) is left out: the primary output has a field of that name"));
    }

    @Test
    void normalizedDataMayBeAnArrayOfMeasurementSets() {
        var codec = compile("""
                function decodeUplink(input) { return { data: { a: 1, b: 2 } }; }
                function normalizeUplink(input) {
                  return { data: [ { air: { temperature: input.data.a } }, { air: { temperature: input.data.b } } ] };
                }""");

        assertThat(codec.decode(new byte[] {0}, 1).measurements())
                .containsEntry("a", 1.0)
                .containsEntry("normalized.0.air.temperature", 1.0)
                .containsEntry("normalized.1.air.temperature", 2.0);
        assertThat(codec.storing(PrimaryOutput.NORMALIZED)
                        .decode(new byte[] {0}, 1)
                        .measurements())
                .containsEntry("0.air.temperature", 1.0)
                .containsEntry("1.air.temperature", 2.0)
                .containsEntry("decoded.b", 2.0);
    }

    @Test
    void normalizeUplinkMayChangeTheDataItIsGivenWithoutChangingTheDecodedOutput() {
        var codec = compile("""
                function decodeUplink(input) { return { data: { t: 21 } }; }
                function normalizeUplink(input) { input.data.t = 99; delete input.data.t; return { data: { x: 1 } }; }""");

        assertThat(codec.decode(new byte[] {0}, 1).measurements())
                .containsExactly(entry("t", 21.0), entry("normalized.x", 1.0));
    }

    @Test
    void errorsFromNormalizeUplinkDeadLetterTheMessage() {
        var codec = compile("""
                function decodeUplink(input) { return { data: { a: 1 } }; }
                function normalizeUplink(input) { return { errors: ["cannot normalize"] }; }""");

        assertThatThrownBy(() -> codec.decode(new byte[] {0}, 1))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining("cannot normalize");
    }

    @Test
    void aScriptWithoutAnyKnownFunctionIsRefusedNamingTheForms() {
        assertThatThrownBy(() -> compile("function decode(bytes) { return {}; }"))
                .isInstanceOf(InvalidScriptException.class)
                .hasMessageContaining("decodeUplink(input)")
                .hasMessageContaining("Decode(fPort, bytes, variables)")
                .hasMessageContaining("Decoder(bytes, port)");
    }
}
