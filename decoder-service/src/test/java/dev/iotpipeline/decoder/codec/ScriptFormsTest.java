package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every script form vendors publish, and every output shape, flattened as the README documents. */
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

        assertThat(decoded.measurements()).containsEntry("readings.0.t", 21.5).containsEntry("readings.1.t", 22.0)
                .containsEntry("list.0", 1.0).containsEntry("list.1", 2.0).hasSize(4);
        assertThat(decoded.attributes()).containsEntry("readings.0.unit", "C").containsEntry("flags.0", true)
                .containsEntry("at", "1970-01-01T00:00:00.000Z").doesNotContainKeys("nothing", "notANumber", "infinite");
        assertThat(decoded.attributes().values()).noneMatch(v -> String.valueOf(v).contains("[object Object]"));
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
                .containsEntry("temperature", 22.0).containsEntry("port", 3.0);
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

    @Test
    void normalizeUplinkIsPreferredAndTheWarningsOfBothAreKept() {
        var codec = compile("""
                function decodeUplink(input) {
                  return { data: { TempC: input.bytes[0] }, warnings: ["raw"] };
                }
                function normalizeUplink(input) {
                  return { data: { air: { temperature: input.data.TempC } }, warnings: ["normalized"] };
                }""");

        var decoded = codec.decode(new byte[] {21}, 1);

        assertThat(codec.form()).isEqualTo(JavaScriptCodec.Form.DECODE_UPLINK);
        assertThat(decoded.measurements()).containsOnlyKeys("air.temperature").containsEntry("air.temperature", 21.0);
        assertThat(decoded.attributes()).containsEntry("codecWarnings", java.util.List.of("raw", "normalized"));
    }

    @Test
    void normalizedDataMayBeAnArrayOfMeasurementSets() {
        var codec = compile("""
                function decodeUplink(input) { return { data: { a: 1, b: 2 } }; }
                function normalizeUplink(input) {
                  return { data: [ { air: { temperature: input.data.a } }, { air: { temperature: input.data.b } } ] };
                }""");

        assertThat(codec.decode(new byte[] {0}, 1).measurements())
                .containsEntry("0.air.temperature", 1.0).containsEntry("1.air.temperature", 2.0);
    }

    @Test
    void errorsFromNormalizeUplinkDeadLetterTheMessage() {
        var codec = compile("""
                function decodeUplink(input) { return { data: { a: 1 } }; }
                function normalizeUplink(input) { return { errors: ["cannot normalize"] }; }""");

        assertThatThrownBy(() -> codec.decode(new byte[] {0}, 1)).isInstanceOf(CodecException.class)
                .hasMessageContaining("cannot normalize");
    }

    @Test
    void aScriptWithoutAnyKnownFunctionIsRefusedNamingTheForms() {
        assertThatThrownBy(() -> compile("function decode(bytes) { return {}; }"))
                .isInstanceOf(InvalidScriptException.class)
                .hasMessageContaining("decodeUplink(input)").hasMessageContaining("Decode(fPort, bytes, variables)")
                .hasMessageContaining("Decoder(bytes, port)");
    }
}
