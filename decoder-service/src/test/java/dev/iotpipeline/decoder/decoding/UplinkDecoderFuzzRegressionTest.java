package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.registry.ResolvedDeviceType;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The record UplinkDecoderPropertiesTest found, shrunk: a JSON payload with a null value. */
class UplinkDecoderFuzzRegressionTest {

    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private final Codecs codecs = new Codecs(Duration.ofMillis(100));
    private final DeviceType json = new DeviceType("json", 1, "json", null, null, null, NOW);
    private final UplinkDecoder decoder = new UplinkDecoder(
            name -> name.equals("json")
                    ? Optional.of(new ResolvedDeviceType(json, codecs.resolve(json), null))
                    : Optional.empty(),
            Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldDecodeAJsonPayloadWithANullValueInsteadOfThrowing() {
        // Was: NullPointerException from DataUnit's Map.copyOf out of decode(), which the listener does not catch.
        var outcome = decoder.decode(EventJson.write(uplink("{\"t\":1,\"x\":null}")));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Decoded.class, decoded -> {
            assertThat(decoded.dataUnit().measurements()).containsEntry("t", 1.0);
            assertThat(decoded.dataUnit().attributes()).doesNotContainKey("x");
        });
        assertThat(decoder.decode(EventJson.write(uplink("{\"\":null}"))))
                .isInstanceOfSatisfying(
                        Outcome.DeadLetter.class,
                        dead -> assertThat(dead.cause()).isEqualTo(DeadLetterCause.CODEC_ERROR));
    }

    private static EncodedUplink uplink(String payload) {
        return new EncodedUplink(
                Ids.newId(), 1, "c", "json", "d-1", 0, payload.getBytes(StandardCharsets.UTF_8), NOW, NOW, Map.of());
    }
}
