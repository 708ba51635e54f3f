package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.JsonNode;

/** Inputs the property tests (UplinkParsingPropertiesTest) found escaping as a 500, shrunk; each is now a 400 or a value. */
class NetworkServerFormatsFuzzRegressionTest {

    private final RequestItems items = new RequestItems(20);
    private final UplinkFactory factory = new UplinkFactory("em300th"::equals, 256, Clock.systemUTC());

    @Test
    void shouldAnswer400ForAChirpStackFPortBeyondTheIntRange() {
        // Was: JsonNodeException "'LongNode' method `asInt()` cannot convert value 2147483648 to `int`".
        var event = json("{\"deviceInfo\":{\"devEui\":\"0101010101010101\"},\"fPort\":2147483648,\"data\":\"qg==\"}");

        assertThatThrownBy(() -> NetworkServerFormats.chirpStack("up", event))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(400);
                    assertThat(e.getBody().getType().toString()).endsWith("/invalid-field");
                    assertThat(e.getBody().getDetail()).contains("fPort");
                });
    }

    @Test
    void shouldAnswer400ForATheThingsStackFPortOutsideAByte() {
        for (var port : new String[] {"2147483648", "-1", "256", "1e300", "85.5"}) {
            var event = json("{\"end_device_ids\":{\"device_id\":\"d\"},\"uplink_message\":{\"f_port\":" + port
                    + ",\"frm_payload\":\"qg==\"}}");

            assertThatThrownBy(() -> NetworkServerFormats.theThingsStack(event))
                    .as(port)
                    .isInstanceOfSatisfying(
                            ErrorResponseException.class,
                            e -> assertThat(e.getStatusCode().value()).isEqualTo(400));
        }
        var whole = json("{\"end_device_ids\":{\"device_id\":\"d\"},\"uplink_message\":{\"f_port\":85.0,"
                + "\"frm_payload\":\"qg==\"}}");
        assertThat(Messages.uplink(NetworkServerFormats.theThingsStack(whole)).fPort())
                .isEqualTo(85);
    }

    @Test
    void shouldReadNoModelFromATheThingsStackModelIdThatIsAnObject() {
        // Was: JsonNodeException "'ObjectNode' method `asString()` cannot coerce value {...} to `java.lang.String`".
        var event = json("{\"end_device_ids\":{\"device_id\":\"d\"},\"uplink_message\":{\"frm_payload\":\"qg==\","
                + "\"version_ids\":{\"brand_id\":\"\",\"model_id\":{}}}}");

        var uplink = Messages.uplink(NetworkServerFormats.theThingsStack(event));

        assertThat(uplink.model()).isNull();
        assertThat(factory.createForwarded(factory.target("c", "em300th"), uplink)
                        .event()
                        .payload())
                .containsExactly((byte) 0xAA);
    }

    private JsonNode json(String text) {
        return items.parse(text.getBytes(StandardCharsets.UTF_8));
    }
}
