package dev.iotpipeline.notify.live.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class LiveEventTest {

    @Test
    void shouldReadADataUnitsRoutingFieldsAndKeepItsJsonAsWritten() {
        var unit = new DataUnit(
                Ids.newId(),
                DataUnit.SCHEMA_VERSION,
                Ids.newId(),
                "irrigation",
                "em300th",
                "dev-1",
                Instant.parse("2026-11-26T10:00:00.123456789Z"),
                Instant.parse("2026-11-26T10:00:01.000000001Z"),
                Instant.parse("2026-11-26T10:00:01.5Z"),
                Map.of("temperature", 30.8),
                Map.of("network", Map.of("rssi", -35)));
        var json = EventJson.write(unit);

        var event = LiveEvent.of(LiveStream.DATA_UNITS, new ConsumerRecord<>("data-units", 2, 41L, "dev-1", json));

        assertThat(event.id()).isEqualTo(unit.id());
        assertThat(event.channel()).isEqualTo("irrigation");
        assertThat(event.deviceType()).isEqualTo("em300th");
        assertThat(event.deviceId()).isEqualTo("dev-1");
        assertThat(event.receivedAt()).isEqualTo(unit.receivedAt());
        assertThat(event.json()).isEqualTo(new String(json, StandardCharsets.UTF_8));
        assertThat(event.partition()).isEqualTo(2);
        assertThat(event.offset()).isEqualTo(41L);
    }

    @Test
    void shouldRefuseARecordThatIsNotADataUnit() {
        for (var value :
                new String[] {"not json", "[1,2]", "{\"id\":\"not-a-uuid\"}", "{\"receivedAt\":\"yesterday\"}"}) {
            var record = new ConsumerRecord<>("data-units", 0, 0L, "dev-1", value.getBytes(StandardCharsets.UTF_8));

            assertThatThrownBy(() -> LiveEvent.of(LiveStream.DATA_UNITS, record))
                    .as(value)
                    .isInstanceOf(RuntimeException.class);
        }
    }
}
