package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs a codec against the captured payloads in {@code src/test/resources/codecs/<codec>.json}: each
 * vector names its source, and malformed payloads must fail with a reason, never with another exception.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CodecTestBase {

    record Vector(
            String source,
            String payloadHex,
            Integer fPort,
            Map<String, Double> measurements,
            Map<String, Object> attributes) {}

    record Malformed(String payloadHex, String reason) {}

    record Vectors(List<Vector> valid, List<Malformed> malformed) {}

    protected abstract UplinkCodec codec();

    Stream<Vector> validVectors() {
        return load().valid().stream();
    }

    Stream<Malformed> malformedVectors() {
        return load().malformed().stream();
    }

    @ParameterizedTest
    @MethodSource("validVectors")
    void shouldDecodeCapturedPayload(Vector vector) {
        var decoded = codec().decode(HexFormat.of().parseHex(vector.payloadHex()), vector.fPort());

        assertThat(decoded.measurements())
                .as(vector.source())
                .containsOnlyKeys(vector.measurements().keySet());
        vector.measurements()
                .forEach((name, expected) ->
                        assertThat(decoded.measurements().get(name)).as(name).isCloseTo(expected, within(1e-9)));
        if (vector.attributes() != null) {
            assertThat(decoded.attributes()).containsAllEntriesOf(vector.attributes());
        }
    }

    @ParameterizedTest
    @MethodSource("malformedVectors")
    void shouldRejectMalformedPayloadWithReason(Malformed vector) {
        assertThatThrownBy(() -> codec().decode(HexFormat.of().parseHex(vector.payloadHex()), null))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining(vector.reason());
    }

    private Vectors load() {
        var resource = "/codecs/" + codec().name() + ".json";
        try (var in = getClass().getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return JsonMapper.builder().build().readValue(in, Vectors.class);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
