package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.JsonNode;

/** Against the example bodies from the network servers' own documentation (see webhooks/SOURCES.md). */
class NetworkServerFormatsTest {

    @Test
    void shouldReadTheThingsStackDocsExample() {
        var uplink = NetworkServerFormats.theThingsStack(fixture("tts-uplink-docs.json"));

        assertThat(uplink.deviceId()).isEqualTo("dev1");
        assertThat(uplink.fPort()).isNull();
        assertThat(uplink.payload()).isNotEmpty();
        assertThat(uplink.messageId()).isEqualTo("as:up:01E0WZGT6Y7657CPFPE5WEYDSQ");
        assertThat(uplink.receivedByNetwork()).isEqualTo(Instant.parse("2020-02-12T15:15:45.789585559Z"));
        assertThat(uplink.model()).isEqualTo("the-things-products/the-things-uno");
        assertThat(uplink.metadata()).containsEntry("rssi", -35).containsEntry("networkServer", "tts")
                .containsEntry("gateways", 1).containsEntry("devEui", "0004A30B001C0530");
    }

    @Test
    void shouldReadATheThingsStackEm300thUplink() {
        var uplink = NetworkServerFormats.theThingsStack(fixture("tts-uplink-em300th.json"));

        assertThat(uplink.deviceId()).isEqualTo("em300-th-1");
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(HexFormat.of().withUpperCase().formatHex(uplink.payload())).isEqualTo("01755C03673401046865");
    }

    @Test
    void shouldReadChirpStackDocsExample() {
        var uplink = NetworkServerFormats.chirpStack(fixture("chirpstack-up-docs.json"));

        assertThat(uplink.deviceId()).isEqualTo("0101010101010101");
        assertThat(uplink.messageId()).isEqualTo("3ac7e3c4-4401-4b8d-9386-a5c902f9202d");
        assertThat(uplink.receivedByNetwork()).isEqualTo(Instant.parse("2022-07-18T09:34:15.775023242Z"));
        assertThat(uplink.model()).isEqualTo("Test device-profile");
        assertThat(uplink.metadata()).containsEntry("rssi", -36).containsEntry("snr", 10.5)
                .containsEntry("networkServer", "chirpstack");
    }

    @Test
    void shouldReadAChirpStackEm300thUplink() {
        var uplink = NetworkServerFormats.chirpStack(fixture("chirpstack-up-em300th.json"));

        assertThat(uplink.deviceId()).isEqualTo("24e124136b502217");
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(HexFormat.of().withUpperCase().formatHex(uplink.payload())).isEqualTo("01755C03673401046865");
        assertThat(uplink.metadata()).containsEntry("deviceName", "em300-th-2");
    }

    @Test
    void shouldRejectAnEventWithoutAPayload() {
        var event = EventJson.mapper().readTree("{\"deviceInfo\":{\"devEui\":\"01\"},\"fPort\":1}");

        assertThatThrownBy(() -> NetworkServerFormats.chirpStack(event))
                .isInstanceOfSatisfying(ErrorResponseException.class,
                        e -> assertThat(e.getBody().getDetail()).contains("data is required"));
    }

    private JsonNode fixture(String name) {
        try (var in = getClass().getResourceAsStream("/webhooks/" + name)) {
            return EventJson.mapper().readTree(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
