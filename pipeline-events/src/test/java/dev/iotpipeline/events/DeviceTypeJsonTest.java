package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Device types on the compacted topic: events written before examples and form existed stay readable. */
class DeviceTypeJsonTest {

    @Test
    void anEventWrittenBeforeExamplesAndFormReadsWithNoExamplesAndNoForm() {
        var old = """
                {"name":"lht","schemaVersion":1,"codec":"lht65","mapping":{"TempC_SHT":{"name":"temperature"}},
                 "description":"Dragino","updatedAt":"2026-11-22T10:15:30Z"}""";

        var type = EventJson.read(old.getBytes(StandardCharsets.UTF_8), DeviceType.class);

        assertThat(type.name()).isEqualTo("lht");
        assertThat(type.codec()).isEqualTo("lht65");
        assertThat(type.mapping()).containsEntry("TempC_SHT", FieldMapping.rename("temperature"));
        assertThat(type.updatedAt()).isEqualTo(Instant.parse("2026-11-22T10:15:30Z"));
        assertThat(type.examples()).isEmpty();
        assertThat(type.form()).isNull();
        assertThat(type.primaryOutput()).isNull();
    }

    @Test
    void examplesAndFormRoundTripToAnEqualEventSoTheRegistryRecognisesItsOwnWrite() {
        var data = EventJson.mapper().readTree("{\"temperature\":21.5,\"ok\":true,\"readings\":[{\"t\":1}],\"n\":3}");
        var type = new DeviceType(
                "js",
                DeviceType.SCHEMA_VERSION,
                DeviceType.JAVASCRIPT,
                "function decodeUplink(i) {}",
                Map.of(),
                null,
                Instant.parse("2026-11-22T10:15:30.123Z"),
                List.of(
                        new CodecExample(
                                "room",
                                new CodecExample.Input(2, List.of(1, 103, 0, 215)),
                                new CodecExample.Output(data, List.of("low battery"), null),
                                new CodecExample.Output(data, null, null)),
                        new CodecExample(
                                null,
                                new CodecExample.Input(null, null),
                                new CodecExample.Output(null, null, List.of("too short")),
                                null)),
                "decodeUplink+normalizeUplink",
                DeviceType.DECODED);

        var json = new String(EventJson.write(type), StandardCharsets.UTF_8);
        var back = EventJson.read(json.getBytes(StandardCharsets.UTF_8), DeviceType.class);

        assertThat(back).isEqualTo(type);
        assertThat(json)
                .contains(
                        "\"form\":\"decodeUplink+normalizeUplink\"",
                        "\"primaryOutput\":\"decoded\"",
                        "\"bytes\":[1,103,0,215]",
                        "\"errors\":[\"too short\"]");
    }

    @Test
    void theShortConstructorLeavesExamplesEmptyAndFormUnrecorded() {
        var type = new DeviceType("em", 1, "em300th", null, null, null, Instant.EPOCH);

        assertThat(type.examples()).isEmpty();
        assertThat(type.form()).isNull();
        assertThat(type.primaryOutput()).isNull();
    }
}
