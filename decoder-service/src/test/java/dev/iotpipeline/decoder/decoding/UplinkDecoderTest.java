package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.registry.ResolvedDeviceType;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.FieldMapping;
import dev.iotpipeline.events.Ids;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UplinkDecoderTest {

    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private final Codecs codecs = new Codecs(Duration.ofMillis(100));
    private final Map<String, ResolvedDeviceType> types = new HashMap<>();
    private final UplinkDecoder decoder =
            new UplinkDecoder(name -> Optional.ofNullable(types.get(name)), Clock.fixed(NOW, ZoneOffset.UTC));

    UplinkDecoderTest() {
        register(new DeviceType("em300th", 1, "em300th", null, null, null, NOW));
        register(new DeviceType(
                "lht65",
                1,
                "lht65",
                null,
                Map.of(
                        "TempC_SHT",
                        FieldMapping.rename("temperature"),
                        "Hum_SHT",
                        FieldMapping.rename("humidity"),
                        "BatV",
                        new FieldMapping("batteryMillivolts", 1000.0, null, null),
                        "Ext_sensor",
                        FieldMapping.dropping()),
                null,
                NOW));
        types.put(
                "broken",
                new ResolvedDeviceType(
                        new DeviceType("broken", 1, "javascript", "x(", null, null, NOW),
                        null,
                        "missing ) (line 1, column 3)"));
    }

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
    void shouldEmitADataUnitPerHistoryRecordWithItsOwnTimeAndDeterministicId() {
        var uplink = uplink("em300th", "03671001046860" + "20ce9e8f6a66f6ff50");

        var outcome = decoder.decode(EventJson.write(uplink));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Decoded.class, decoded -> {
            assertThat(decoded.history()).singleElement().satisfies(earlier -> {
                assertThat(earlier.id()).isEqualTo(Ids.derive(uplink.id(), "data-unit:history:0"));
                assertThat(earlier.measuredAt()).isEqualTo(Instant.ofEpochSecond(0x666A8F9EL));
                assertThat(earlier.measurements()).containsEntry("temperature", -1.0);
            });
            assertThat(decoded.dataUnit().measurements()).containsEntry("temperature", 27.2);
        });
    }

    @Test
    void shouldApplyTheDeviceTypesFieldMapping() {
        var outcome = decoder.decode(EventJson.write(uplink("lht65", "CBF60B0D0376010ADD7FFF")));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Decoded.class, decoded -> {
            assertThat(decoded.dataUnit().measurements())
                    .containsEntry("temperature", 28.29)
                    .containsEntry("humidity", 88.6)
                    .containsEntry("TempC_DS", 27.81)
                    .containsEntry("batteryMillivolts", 3062.0)
                    .doesNotContainKeys("TempC_SHT", "BatV");
            assertThat(decoded.dataUnit().attributes())
                    .containsKey("Bat_status")
                    .doesNotContainKey("Ext_sensor");
        });
    }

    @Test
    void shouldApplyADeviceTypeChangeToTheNextMessage() {
        var payload = EventJson.write(uplink("em300th", "01755C03673401046865"));
        assertThat(decoder.decode(payload))
                .isInstanceOfSatisfying(
                        Outcome.Decoded.class,
                        d -> assertThat(d.dataUnit().measurements()).containsKey("temperature"));

        register(new DeviceType(
                "em300th", 1, "em300th", null, Map.of("temperature", FieldMapping.rename("airTemp")), null, NOW));

        assertThat(decoder.decode(payload))
                .isInstanceOfSatisfying(
                        Outcome.Decoded.class,
                        d -> assertThat(d.dataUnit().measurements())
                                .containsKey("airTemp")
                                .doesNotContainKey("temperature"));
    }

    /** Knots and compass points from decodeUplink; m/s and degrees from normalizeUplink. */
    private static final String WIND = """
            var POINTS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
            function decodeUplink(input) {
              return { data: { direction: POINTS[input.bytes[0]], speed: input.bytes[1], unit: "kn" } };
            }
            function normalizeUplink(input) {
              return { data: { wind: { direction: POINTS.indexOf(input.data.direction) * 45,
                                       speed: input.data.speed * 0.514444 } } };
            }""";

    @Test
    void shouldKeepEveryDecodedAndEveryNormalizedValueInTheDataUnit() {
        register(new DeviceType(
                "wind", 1, DeviceType.JAVASCRIPT, WIND, null, null, NOW, null, null, DeviceType.DECODED));
        register(new DeviceType(
                "wind-normalized",
                1,
                DeviceType.JAVASCRIPT,
                WIND,
                Map.of("wind.speed", FieldMapping.rename("windSpeed")),
                null,
                NOW,
                null,
                null,
                DeviceType.NORMALIZED));

        assertThat(decoder.decode(EventJson.write(uplink("wind", "0020"))))
                .isInstanceOfSatisfying(Outcome.Decoded.class, decoded -> {
                    assertThat(decoded.dataUnit().measurements())
                            .containsOnly(
                                    Map.entry("speed", 32.0),
                                    Map.entry("normalized.wind.direction", 0.0),
                                    Map.entry("normalized.wind.speed", 32 * 0.514444));
                    assertThat(decoded.dataUnit().attributes())
                            .containsOnly(Map.entry("direction", "N"), Map.entry("unit", "kn"));
                });
        assertThat(decoder.decode(EventJson.write(uplink("wind-normalized", "0620"))))
                .isInstanceOfSatisfying(Outcome.Decoded.class, decoded -> {
                    assertThat(decoded.dataUnit().measurements())
                            .containsOnly(
                                    Map.entry("windSpeed", 32 * 0.514444),
                                    Map.entry("wind.direction", 270.0),
                                    Map.entry("decoded.speed", 32.0));
                    assertThat(decoded.dataUnit().attributes())
                            .containsOnly(Map.entry("decoded.direction", "W"), Map.entry("decoded.unit", "kn"));
                });
    }

    @Test
    void aNormalizingTypeRecordedBeforeBothOutputsWereKeptKeepsTheNormalizedNamesItStoredThen() {
        register(new DeviceType("wind-old", 1, DeviceType.JAVASCRIPT, WIND, null, null, NOW));

        assertThat(decoder.decode(EventJson.write(uplink("wind-old", "0420"))))
                .isInstanceOfSatisfying(
                        Outcome.Decoded.class,
                        decoded -> assertThat(decoded.dataUnit().measurements())
                                .containsKeys("wind.direction", "wind.speed", "decoded.speed")
                                .doesNotContainKey("speed"));
    }

    @Test
    void shouldDeadLetterAPoisonPill() {
        assertDead(
                decoder.decode("{\"id\":".getBytes(StandardCharsets.UTF_8)),
                DeadLetterCause.MALFORMED_EVENT,
                "malformed event");
    }

    @Test
    void shouldDeadLetterAnUndecodablePayloadWithTheCodecsReason() {
        var outcome = decoder.decode(EventJson.write(uplink("em300th", "0367")));

        assertDead(outcome, DeadLetterCause.CODEC_ERROR, "ends inside temperature");
        assertThat(((Outcome.DeadLetter) outcome).codec()).isEqualTo("em300th");
    }

    @Test
    void shouldDeadLetterUnknownDeviceTypesAndBrokenCodecs() {
        assertDead(
                decoder.decode(EventJson.write(uplink("nope", "0175"))),
                DeadLetterCause.UNKNOWN_DEVICE_TYPE,
                "unknown device type 'nope'");
        assertDead(
                decoder.decode(EventJson.write(uplink("broken", "0175"))), DeadLetterCause.BROKEN_CODEC, "missing )");
    }

    @Test
    void shouldDeadLetterAScriptThatRunsPastItsLimitAsATimeout() {
        register(new DeviceType(
                "spin", 1, "javascript", "function decodeUplink(input) { for (;;) {} }", null, null, NOW));

        assertDead(decoder.decode(EventJson.write(uplink("spin", "01"))), DeadLetterCause.CODEC_TIMEOUT, "time limit");
        assertThat(decoder.decode(EventJson.write(uplink("em300th", "01755C")))).isInstanceOf(Outcome.Decoded.class);
    }

    private void register(DeviceType type) {
        types.put(type.name(), new ResolvedDeviceType(type, codecs.resolve(type), null));
    }

    private static void assertDead(Outcome outcome, DeadLetterCause cause, String reason) {
        assertThat(outcome).isInstanceOfSatisfying(Outcome.DeadLetter.class, dead -> {
            assertThat(dead.cause()).isEqualTo(cause);
            assertThat(dead.reason()).contains(reason);
        });
    }

    private static EncodedUplink uplink(String type, String hex) {
        return new EncodedUplink(
                Ids.newId(),
                1,
                "irrigation",
                type,
                "dev-1",
                2,
                HexFormat.of().parseHex(hex),
                Instant.parse("2026-11-22T08:59:59Z"),
                null,
                Map.of());
    }
}
