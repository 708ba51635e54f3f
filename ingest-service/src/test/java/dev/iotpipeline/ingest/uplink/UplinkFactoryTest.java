package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class UplinkFactoryTest {

    private static final Instant NOW = Instant.parse("2026-11-22T08:00:00Z");
    private final UplinkFactory factory = new UplinkFactory("em300th"::equals, 16, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void shouldBuildAnUplinkFromHexPayload() {
        var uplink = factory.create("irrigation", "em300th",
                new UplinkRequest("dev-1", null, "01755C03673401046865", 85, null, null), null);

        assertThat(uplink.payload()).hasSize(10);
        assertThat(uplink.receivedAt()).isEqualTo(NOW);
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(uplink.id().version()).isEqualTo(7);
    }

    @Test
    void shouldGiveTheSameIdToARetryWithTheSameClientId() {
        var request = new UplinkRequest("dev-1", "AXVc", null, null, "msg-7", null);

        var first = factory.create("irrigation", "em300th", request, null);
        var retry = factory.create("irrigation", "em300th", request, null);

        assertThat(retry.id()).isEqualTo(first.id());
    }

    @Test
    void shouldRejectInvalidBase64() {
        assertProblem(new UplinkRequest("dev-1", "***", null, null, null, null), "em300th", 400, "invalid-base64");
    }

    @Test
    void shouldRejectInvalidHex() {
        assertProblem(new UplinkRequest("dev-1", null, "0G", null, null, null), "em300th", 400, "invalid-hex");
    }

    @Test
    void shouldRejectMissingDeviceId() {
        assertProblem(new UplinkRequest(null, "AXVc", null, null, null, null), "em300th", 400, "missing-field");
    }

    @Test
    void shouldRejectBothPayloadForms() {
        assertProblem(new UplinkRequest("dev-1", "AXVc", "01", null, null, null), "em300th", 400, "missing-field");
    }

    @Test
    void shouldRejectUnknownDeviceTypeWith404() {
        assertProblem(new UplinkRequest("dev-1", "AXVc", null, null, null, null), "nope", 404, "unknown-device-type");
    }

    @Test
    void shouldRejectPayloadLargerThanLimit() {
        assertProblem(new UplinkRequest("dev-1", null, "00".repeat(17), null, null, null), "em300th", 413,
                "payload-too-large");
    }

    private void assertProblem(UplinkRequest request, String deviceType, int status, String type) {
        assertThatThrownBy(() -> factory.create("irrigation", deviceType, request, null))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(status);
                    assertThat(e.getBody().getType().toString()).endsWith("/" + type);
                });
    }
}
