package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UplinkDecoderTest {

    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private final Map<String, DeviceType> types = Map.of(
            "em300th", new DeviceType("em300th", 1, "em300th", null, NOW),
            "broken", new DeviceType("broken", 1, "no-such-codec", null, NOW));
    private final UplinkDecoder decoder = new UplinkDecoder(name -> Optional.ofNullable(types.get(name)),
            Codecs.builtIn(), Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldDecodeIntoADataUnitWithAnIdDerivedFromTheUplink() {
        var uplink = uplink("em300th", "01755C03673401046865");

        var outcome = decoder.decode(EventJson.write(uplink));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Decoded.class, decoded -> {
            var unit = decoded.dataUnit();
            assertThat(unit.id()).isEqualTo(Ids.derive(uplink.id(), "data-unit"));
            assertThat(unit.uplinkId()).isEqualTo(uplink.id());
            assertThat(unit.measurements()).containsEntry("temperature", 30.8).containsEntry("battery", 92.0);
            assertThat(unit.measuredAt()).isEqualTo(uplink.receivedAt());
            assertThat(unit.decodedAt()).isEqualTo(NOW);
        });
    }

    @Test
    void shouldDeadLetterAPoisonPill() {
        var outcome = decoder.decode("{\"id\":".getBytes(StandardCharsets.UTF_8));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.DeadLetter.class,
                dead -> assertThat(dead.reason()).startsWith("malformed event"));
    }

    @Test
    void shouldDeadLetterAnUndecodablePayloadWithTheCodecsReason() {
        var outcome = decoder.decode(EventJson.write(uplink("em300th", "0367")));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.DeadLetter.class,
                dead -> assertThat(dead.reason()).contains("ends inside temperature"));
    }

    @Test
    void shouldDeadLetterUnknownDeviceTypesAndCodecs() {
        assertThat(decoder.decode(EventJson.write(uplink("nope", "0175")))).isInstanceOfSatisfying(
                Outcome.DeadLetter.class, dead -> assertThat(dead.reason()).contains("unknown device type 'nope'"));
        assertThat(decoder.decode(EventJson.write(uplink("broken", "0175")))).isInstanceOfSatisfying(
                Outcome.DeadLetter.class, dead -> assertThat(dead.reason()).contains("unknown codec 'no-such-codec'"));
    }

    private static EncodedUplink uplink(String type, String hex) {
        return new EncodedUplink(Ids.newId(), 1, "irrigation", type, "dev-1", 85, HexFormat.of().parseHex(hex),
                Instant.parse("2026-11-22T08:59:59Z"), null, Map.of());
    }
}
