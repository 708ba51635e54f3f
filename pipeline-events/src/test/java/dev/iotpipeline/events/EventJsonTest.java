package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

class EventJsonTest {

    @Test
    void shouldRoundTripAnUplinkWithBase64PayloadAndIsoTimestamps() {
        var uplink = new EncodedUplink(
                Ids.newId(),
                EncodedUplink.SCHEMA_VERSION,
                "irrigation",
                "em300th",
                "dev-1",
                85,
                new byte[] {1, 0x75, 0x5C},
                Instant.parse("2026-11-22T10:15:30.123Z"),
                null,
                Map.of("rssi", -97));

        var json = new String(EventJson.write(uplink), StandardCharsets.UTF_8);
        var back = EventJson.read(json.getBytes(StandardCharsets.UTF_8), EncodedUplink.class);

        assertThat(json)
                .contains("\"payload\":\"AXVc\"", "\"receivedAt\":\"2026-11-22T10:15:30.123Z\"")
                .doesNotContain("measuredAt");
        assertThat(back.payload()).containsExactly(1, 0x75, 0x5C);
        assertThat(back.id()).isEqualTo(uplink.id());
        assertThat(back.metadata()).containsEntry("rssi", -97);
    }

    @Test
    void shouldFailLoudlyOnMalformedJson() {
        assertThatThrownBy(() -> EventJson.read("{not json".getBytes(StandardCharsets.UTF_8), DataUnit.class))
                .isInstanceOf(JacksonException.class);
    }
}
