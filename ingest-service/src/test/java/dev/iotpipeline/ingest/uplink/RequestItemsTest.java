package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class RequestItemsTest {

    private final RequestItems items = new RequestItems(3);
    private final UplinkFactory factory = new UplinkFactory("em300th"::equals, 64, Clock.systemUTC());

    @Test
    void shouldNameTheIndexOfTheFirstBadItemOfABatch() {
        var body = items.parse(
                bytes("[{\"deviceId\":\"a\",\"payloadHex\":\"01\"},{\"deviceId\":\"b\",\"payloadHex\":\"zz\"}]"));

        assertThatThrownBy(() -> items.map(
                        body,
                        UplinkRequest.class,
                        (request, index) -> factory.create(factory.target("c", "em300th"), request, null, index)
                                .event()))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getBody().getDetail()).startsWith("items[1]: payloadHex is not valid hex");
                    assertThat(e.getBody().getProperties()).containsEntry("index", 1);
                    assertThat(e.getBody().getType().toString()).endsWith("/invalid-hex");
                });
    }

    @Test
    void shouldRejectBatchesOverTheLimit() {
        var tooMany = items.parse(bytes("[{},{},{},{}]"));
        assertThatThrownBy(() -> items.map(tooMany, UplinkRequest.class, (r, i) -> r))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getType().toString()).endsWith("/batch-too-large"));
    }

    @Test
    void shouldRejectMalformedJsonAndNonObjectItems() {
        assertThatThrownBy(() -> items.parse(bytes("[{")))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getType().toString()).endsWith("/malformed-json"));
        var scalars = items.parse(bytes("[1]"));
        assertThatThrownBy(() -> items.map(scalars, UplinkRequest.class, (r, i) -> r))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getDetail()).startsWith("items[0]"));
    }

    @Test
    void shouldMapASingleObjectWithoutIndex() {
        var body = items.parse(bytes("{\"deviceId\":\"a\",\"payloadHex\":\"01\"}"));

        var mapped = items.map(body, UplinkRequest.class, (request, index) -> request.deviceId() + "@" + index);

        assertThat(mapped).containsExactly("a@null");
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
