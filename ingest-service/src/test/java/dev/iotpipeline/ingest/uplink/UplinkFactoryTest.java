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
        var uplink = factory.create(
                        factory.target("irrigation", "em300th"),
                        new UplinkRequest("dev-1", null, "01755C03673401046865", 85, null, null),
                        null,
                        null)
                .event();

        assertThat(uplink.payload()).hasSize(10);
        assertThat(uplink.receivedAt()).isEqualTo(NOW);
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(uplink.id().version()).isEqualTo(7);
    }

    @Test
    void shouldGiveTheSameIdToARetryWithTheSameClientId() {
        var request = new UplinkRequest("dev-1", "AXVc", null, null, "msg-7", null);

        var first = factory.create(factory.target("irrigation", "em300th"), request, null, null)
                .event();
        var retry = factory.create(factory.target("irrigation", "em300th"), request, null, null)
                .event();

        assertThat(retry.id()).isEqualTo(first.id());
    }

    @Test
    void shouldScopeAUuidKeyToItsChannelAndDeviceSoReusedKeysAreDifferentUplinks() {
        var key = "3ac7e3c4-4401-4b8d-9386-a5c902f9202d";
        var one = new UplinkRequest("dev-1", "AXVc", null, null, key, null);

        var first = factory.create(factory.target("irrigation", "em300th"), one, null, null)
                .event();
        var otherChannel = factory.create(factory.target("greenhouse", "em300th"), one, null, null)
                .event();
        var otherDevice = factory.create(
                        factory.target("irrigation", "em300th"),
                        new UplinkRequest("dev-2", "AXVc", null, null, key, null),
                        null,
                        null)
                .event();
        var byHeader = factory.create(
                        factory.target("irrigation", "em300th"),
                        new UplinkRequest("dev-1", "AXVc", null, null, null, null),
                        key,
                        null)
                .event();

        assertThat(first.id())
                .isNotEqualTo(java.util.UUID.fromString(key))
                .isNotEqualTo(otherChannel.id())
                .isNotEqualTo(otherDevice.id())
                .isEqualTo(factory.create(factory.target("irrigation", "em300th"), one, null, null)
                        .event()
                        .id())
                .isEqualTo(byHeader.id());
    }

    @Test
    void shouldGiveAForwardedUplinkAnIdScopedToItsDeviceAndTimedByTheNetwork() {
        var received = Instant.parse("2026-03-01T10:15:30.5Z");
        var target = factory.target("irrigation", "em300th");
        var forwarded = new WebhookUplink(
                "dev-1",
                85,
                new byte[] {1},
                received,
                "3ac7e3c4-4401-4b8d-9386-a5c902f9202d",
                null,
                java.util.Map.of());

        var uplink = factory.createForwarded(target, forwarded).event();

        assertThat(uplink.id())
                .isEqualTo(factory.createForwarded(target, forwarded).event().id())
                .isNotEqualTo(factory.createForwarded(factory.target("greenhouse", "em300th"), forwarded)
                        .event()
                        .id());
        assertThat(dev.iotpipeline.events.Ids.timeOf(uplink.id())).isEqualTo(received);
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
        assertProblem(
                new UplinkRequest("dev-1", null, "00".repeat(17), null, null, null),
                "em300th",
                413,
                "payload-too-large");
    }

    @Test
    void shouldSayTheIdWasMintedOnlyWhenTheSenderNamedNone() {
        var target = factory.target("irrigation", "em300th");
        var anonymous = new UplinkRequest("dev-1", "AXVc", null, null, null, null);
        var named = new UplinkRequest("dev-1", "AXVc", null, null, "msg-7", null);
        var forwarded = new WebhookUplink("dev-1", 85, new byte[] {1}, NOW, null, null, java.util.Map.of());

        assertThat(factory.create(target, anonymous, null, null).mintedId()).isTrue();
        assertThat(factory.create(target, anonymous, null, 0).mintedId()).isTrue();
        assertThat(factory.create(target, named, null, null).mintedId()).isFalse();
        assertThat(factory.create(target, anonymous, "key-1", null).mintedId()).isFalse();
        assertThat(factory.create(target, anonymous, "key-1", 3).mintedId()).isFalse();
        assertThat(factory.createForwarded(target, forwarded).mintedId()).isTrue();
        assertThat(factory.createForwarded(
                                target,
                                new WebhookUplink("dev-1", 85, new byte[] {1}, NOW, "m-1", null, java.util.Map.of()))
                        .mintedId())
                .isFalse();
    }

    @Test
    void shouldDeriveBatchItemIdsFromTheIdempotencyKeyAndIndex() {
        var request = new UplinkRequest("dev-1", "AXVc", null, null, null, null);

        var first = factory.create(factory.target("irrigation", "em300th"), request, "batch-9", 0)
                .event();
        var second = factory.create(factory.target("irrigation", "em300th"), request, "batch-9", 1)
                .event();
        var retriedFirst = factory.create(factory.target("irrigation", "em300th"), request, "batch-9", 0)
                .event();

        assertThat(retriedFirst.id()).isEqualTo(first.id()).isNotEqualTo(second.id());
    }

    @Test
    void shouldCarryDecodedMeasurementsAsAJsonPayload() {
        var factory = new UplinkFactory(t -> true, 1024, Clock.fixed(NOW, ZoneOffset.UTC));

        var uplink = factory.createDecoded(
                        factory.decodedTarget("greenhouse"),
                        new DecodedRequest("dev-1", java.util.Map.of("temperature", 21.5), null, null, null),
                        null,
                        null)
                .event();

        assertThat(uplink.deviceType()).isEqualTo("json");
        assertThat(new String(uplink.payload())).isEqualTo("{\"measurements\":{\"temperature\":21.5}}");
    }

    @Test
    void shouldRejectNonNumericDecodedMeasurements() {
        var factory = new UplinkFactory(t -> true, 1024, Clock.fixed(NOW, ZoneOffset.UTC));

        assertThatThrownBy(() -> factory.createDecoded(
                                factory.decodedTarget("greenhouse"),
                                new DecodedRequest("dev-1", java.util.Map.of("temperature", "warm"), null, null, null),
                                null,
                                null)
                        .event())
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getDetail()).contains("must be a finite number"));
    }

    @Test
    void shouldRejectChannelNamesOutsideThePattern() {
        assertThatThrownBy(() -> factory.target("Bad_Channel", "em300th"))
                .isInstanceOfSatisfying(
                        ErrorResponseException.class,
                        e -> assertThat(e.getBody().getType().toString()).endsWith("/invalid-name"));
    }

    private void assertProblem(UplinkRequest request, String deviceType, int status, String type) {
        assertThatThrownBy(() -> factory.create(factory.target("irrigation", deviceType), request, null, null)
                        .event())
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getStatusCode().value()).isEqualTo(status);
                    assertThat(e.getBody().getType().toString()).endsWith("/" + type);
                });
    }
}
