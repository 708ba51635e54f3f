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
        var uplink = Messages.uplink(NetworkServerFormats.theThingsStack(fixture("tts-uplink-docs.json")));

        assertThat(uplink.deviceId()).isEqualTo("dev1");
        assertThat(uplink.fPort()).isNull();
        assertThat(uplink.payload()).isNotEmpty();
        assertThat(uplink.messageId()).isEqualTo("as:up:01E0WZGT6Y7657CPFPE5WEYDSQ");
        assertThat(uplink.receivedByNetwork()).isEqualTo(Instant.parse("2020-02-12T15:15:45.789585559Z"));
        assertThat(uplink.model()).isEqualTo("the-things-products/the-things-uno");
        assertThat(uplink.metadata())
                .containsEntry("rssi", -35)
                .containsEntry("networkServer", "tts")
                .containsEntry("gateways", 1)
                .containsEntry("devEui", "0004A30B001C0530");
    }

    @Test
    void shouldReadATheThingsStackEm300thUplink() {
        var uplink = Messages.uplink(NetworkServerFormats.theThingsStack(fixture("tts-uplink-em300th.json")));

        assertThat(uplink.deviceId()).isEqualTo("em300-th-1");
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(HexFormat.of().withUpperCase().formatHex(uplink.payload())).isEqualTo("01755C03673401046865");
    }

    @Test
    void shouldReadChirpStackDocsExample() {
        var uplink = Messages.uplink(NetworkServerFormats.chirpStack("up", fixture("chirpstack-up-docs.json")));

        assertThat(uplink.deviceId()).isEqualTo("0101010101010101");
        assertThat(uplink.messageId()).isEqualTo("3ac7e3c4-4401-4b8d-9386-a5c902f9202d");
        assertThat(uplink.receivedByNetwork()).isEqualTo(Instant.parse("2022-07-18T09:34:15.775023242Z"));
        assertThat(uplink.model()).isEqualTo("Test device-profile");
        assertThat(uplink.metadata())
                .containsEntry("rssi", -36)
                .containsEntry("snr", 10.5)
                .containsEntry("networkServer", "chirpstack");
    }

    @Test
    void shouldReadAChirpStackEm300thUplink() {
        var uplink = Messages.uplink(NetworkServerFormats.chirpStack("up", fixture("chirpstack-up-em300th.json")));

        assertThat(uplink.deviceId()).isEqualTo("24e124136b502217");
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(HexFormat.of().withUpperCase().formatHex(uplink.payload())).isEqualTo("01755C03673401046865");
        assertThat(uplink.metadata()).containsEntry("deviceName", "em300-th-2");
    }

    @Test
    void shouldAcknowledgeAnUplinkWithoutAnApplicationPayloadAndStoreNothing() {
        var chirpStack = EventJson.mapper().readTree("{\"deviceInfo\":{\"devEui\":\"01\"},\"fPort\":1}");
        var tts = EventJson.mapper()
                .readTree("{\"end_device_ids\":{\"device_id\":\"d\"},"
                        + "\"uplink_message\":{\"f_port\":1,\"f_cnt\":7}}");

        assertThat(NetworkServerFormats.chirpStack("up", chirpStack))
                .isEqualTo(new NetworkMessage.Acknowledged("up", "the uplink carries no application payload"));
        assertThat(NetworkServerFormats.theThingsStack(tts))
                .isInstanceOf(NetworkMessage.Acknowledged.class)
                .extracting(NetworkMessage::type)
                .isEqualTo("uplink_message");
    }

    @Test
    void shouldNameAFieldMaskedTheThingsStackUplinkByCounterAndTimeOrNotAtAll() {
        var timed = EventJson.mapper()
                .readTree("{\"end_device_ids\":{\"device_id\":\"d\"},\"uplink_message\":"
                        + "{\"f_cnt\":7,\"frm_payload\":\"qg==\",\"received_at\":\"2026-01-01T00:00:00Z\"}}");
        var bare = EventJson.mapper()
                .readTree("{\"end_device_ids\":{\"device_id\":\"d\"},\"uplink_message\":"
                        + "{\"frm_payload\":\"qg==\"}}");

        assertThat(Messages.uplink(NetworkServerFormats.theThingsStack(timed)).messageId())
                .isEqualTo("d:7:2026-01-01T00:00:00Z");
        assertThat(Messages.uplink(NetworkServerFormats.theThingsStack(bare)).messageId())
                .as("nothing names it, so two such uplinks are never taken for one")
                .isNull();
    }

    @Test
    void shouldAcknowledgeEveryOtherTheThingsStackMessageTypeByName() {
        for (var type : NetworkServerFormats.TTS_TYPES.subList(1, NetworkServerFormats.TTS_TYPES.size())) {
            var event = EventJson.mapper()
                    .readTree("{\"end_device_ids\":{\"device_id\":\"d\"},"
                            + "\"correlation_ids\":[\"as:up:01E0WZGT6Y7657CPFPE5WEYDSQ\"],\"" + type + "\":{}}");

            assertThat(NetworkServerFormats.theThingsStack(event))
                    .as(type)
                    .isEqualTo(new NetworkMessage.Acknowledged(type, "not an uplink"));
        }
        var future = EventJson.mapper().readTree("{\"end_device_ids\":{\"device_id\":\"d\"},\"relay_ack\":{}}");
        assertThat(NetworkServerFormats.theThingsStack(future).type()).isEqualTo("other");
    }

    @Test
    void shouldRefuseATheThingsStackBodyThatNamesNoDeviceOrHoldsNoMessage() {
        var noDevice = EventJson.mapper().readTree("{\"join_accept\":{}}");
        var noMessage = EventJson.mapper()
                .readTree("{\"end_device_ids\":{\"device_id\":\"d\"},\"received_at\":" + "\"2026-01-01T00:00:00Z\"}");

        assertThatThrownBy(() -> NetworkServerFormats.theThingsStack(noDevice))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getDetail()).contains("end_device_ids is required"));
        assertThatThrownBy(() -> NetworkServerFormats.theThingsStack(noMessage))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getDetail()).contains("no message type"));
    }

    @Test
    void shouldAcknowledgeEveryOtherChirpStackEventButRefuseABodyThatIsNotAnObject() {
        for (var event :
                NetworkServerFormats.CHIRPSTACK_EVENTS.subList(1, NetworkServerFormats.CHIRPSTACK_EVENTS.size())) {
            assertThat(NetworkServerFormats.chirpStack(event, EventJson.mapper().readTree("{\"deviceInfo\":{}}")))
                    .isEqualTo(new NetworkMessage.Acknowledged(event, "not an uplink"));
        }
        assertThatThrownBy(() -> NetworkServerFormats.chirpStack(
                        "join", EventJson.mapper().readTree("[]")))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getType().toString()).endsWith("/malformed-json"));
    }

    private JsonNode fixture(String name) {
        try (var in = getClass().getResourceAsStream("/webhooks/" + name)) {
            return EventJson.mapper().readTree(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
