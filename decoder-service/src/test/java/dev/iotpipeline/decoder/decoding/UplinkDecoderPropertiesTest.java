package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.registry.ResolvedDeviceType;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.FieldMapping;
import dev.iotpipeline.events.fuzz.Fuzz;
import dev.iotpipeline.events.fuzz.JsonFuzz;
import dev.iotpipeline.events.fuzz.JsonFuzz.Body;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The decoder's contract for a record of uplinks.encoded, "never throws for bad input": any bytes, however
 * malformed as an event and whatever payload and device type they carry, become a data unit that serializes
 * or a dead letter with a cause and reason.
 */
class UplinkDecoderPropertiesTest {

    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private final Codecs codecs = new Codecs(Duration.ofMillis(100));
    private final Map<String, ResolvedDeviceType> types = new HashMap<>();
    private final UplinkDecoder decoder =
            new UplinkDecoder(name -> Optional.ofNullable(types.get(name)), Clock.fixed(NOW, java.time.ZoneOffset.UTC));

    UplinkDecoderPropertiesTest() {
        register(new DeviceType("em300th", 1, "em300th", null, null, null, NOW));
        register(new DeviceType(
                "lht65",
                1,
                "lht65",
                null,
                Map.of(
                        "TempC_SHT",
                        FieldMapping.rename("temperature"),
                        "BatV",
                        new FieldMapping("batteryMillivolts", 1000.0, -1.0, null),
                        "Ext_sensor",
                        FieldMapping.dropping()),
                null,
                NOW));
        register(new DeviceType("cayenne-lpp", 1, "cayenne-lpp", null, null, null, NOW));
        register(new DeviceType("json", 1, "json", null, Map.of("t", FieldMapping.rename("temperature")), null, NOW));
        register(new DeviceType("js", 1, "javascript", """
                function decodeUplink(input) {
                  var data = {}; for (var i = 0; i < input.bytes.length; i++) { data['b' + i] = input.bytes[i] / (i % 3); }
                  return { data: data, warnings: input.fPort === 0 ? ['port 0'] : [] };
                }""", null, null, NOW));
        types.put(
                "broken",
                new ResolvedDeviceType(
                        new DeviceType("broken", 1, "javascript", "x(", null, null, NOW),
                        null,
                        "missing ) (line 1, column 3)"));
    }

    private void register(DeviceType type) {
        types.put(type.name(), new ResolvedDeviceType(type, codecs.resolve(type), null));
    }

    @Property
    void anyRecordBecomesADataUnitOrADeadLetter(@ForAll("records") Body record) {
        var outcome = Fuzz.returns(
                () -> decoder.decode(record.bytes()),
                o -> o instanceof Outcome.DeadLetter dead ? "dead letter " + dead.cause() : "decoded");
        assertThat(outcome).isNotNull();
        if (outcome instanceof Outcome.Decoded decoded) {
            assertThat(EventJson.write(decoded.dataUnit())).isNotEmpty();
            decoded.history().forEach(unit -> assertThat(EventJson.write(unit)).isNotEmpty());
        } else if (outcome instanceof Outcome.DeadLetter dead) {
            assertThat(dead.cause()).isNotNull();
            assertThat(dead.reason()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<Body> records() {
        var fields = JsonFuzz.fields();
        fields.put(
                "id",
                JsonFuzz.field(Arbitraries.create(
                        () -> JsonFuzz.quote(UUID.randomUUID().toString()))));
        fields.put("schemaVersion", JsonFuzz.field(Arbitraries.of("1", "2", "0")));
        fields.put("channel", JsonFuzz.field(Arbitraries.of("\"c\"", "\"fuzz\"")));
        fields.put(
                "deviceType",
                JsonFuzz.field(Arbitraries.of("em300th", "lht65", "cayenne-lpp", "json", "js", "broken", "unknown")
                        .map(JsonFuzz::quote)));
        fields.put("deviceId", JsonFuzz.field(Arbitraries.of("\"d-1\"", "\"x\"")));
        fields.put(
                "fPort", JsonFuzz.field(Arbitraries.integers().between(-1, 256).map(String::valueOf)));
        fields.put(
                "payload",
                JsonFuzz.field(Arbitraries.frequencyOf(
                                Tuple.of(
                                        3,
                                        Arbitraries.bytes().array(byte[].class).ofMaxSize(32)),
                                Tuple.of(1, JsonFuzz.values(3).map(JsonFuzz::utf8)))
                        .map(b -> JsonFuzz.quote(Base64.getEncoder().encodeToString(b)))));
        fields.put(
                "receivedAt",
                JsonFuzz.field(Arbitraries.longs()
                        .between(0, 4_102_444_800L)
                        .map(s -> JsonFuzz.quote(Instant.ofEpochSecond(s).toString()))));
        fields.put(
                "measuredAt",
                JsonFuzz.field(Arbitraries.longs()
                        .between(-62_135_596_800L, 253_402_300_799L)
                        .map(s -> JsonFuzz.quote(Instant.ofEpochSecond(s).toString()))));
        fields.put("metadata", JsonFuzz.field(JsonFuzz.objects(3)));
        return JsonFuzz.documents(JsonFuzz.shaped(fields));
    }
}
