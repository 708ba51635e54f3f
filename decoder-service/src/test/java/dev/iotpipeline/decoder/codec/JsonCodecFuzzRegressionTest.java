package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Inputs the property tests (BuiltInCodecsPropertiesTest, UplinkDecoderPropertiesTest) found, shrunk. */
class JsonCodecFuzzRegressionTest {

    private final JsonCodec codec = new JsonCodec();

    @Test
    void shouldRejectANumberTooLargeForADoubleInsteadOfMeasuringInfinity() {
        // Was: a measurement "" = Infinity.
        assertThatThrownBy(() -> decode("{\"\":1e999999999}"))
                .isExactlyInstanceOf(CodecException.class)
                .hasMessageContaining("not a finite number");
        assertThatThrownBy(() -> decode("{\"measurements\":{\"t\":-1e400}}"))
                .isExactlyInstanceOf(CodecException.class)
                .hasMessageContaining("not a finite number");
    }

    @Test
    void shouldDropNullAttributesWhichADataUnitCannotHold() {
        // Was: attribute x = null, then DataUnit's Map.copyOf threw a NullPointerException out of the decoder.
        var decoded = decode("{\"t\":1,\"x\":null}");

        assertThat(decoded.attributes()).doesNotContainKey("x");
        assertThat(decode("{\"measurements\":{\"t\":1},\"attributes\":{\"x\":null,\"y\":[null]}}")
                        .attributes())
                .containsOnlyKeys("y");
        assertThatThrownBy(() -> decode("{\"\":null}"))
                .isExactlyInstanceOf(CodecException.class)
                .hasMessageContaining("holds no values");
    }

    private Decoded decode(String json) {
        return codec.decode(json.getBytes(StandardCharsets.UTF_8), null);
    }
}
