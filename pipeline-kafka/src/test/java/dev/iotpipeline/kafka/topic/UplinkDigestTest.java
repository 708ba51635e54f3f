package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.Ids;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class UplinkDigestTest {

    private static final Instant MEASURED = Instant.parse("2026-03-01T10:15:30.123456789Z");

    private static EncodedUplink uplink(
            String deviceType, Integer fPort, byte[] payload, Instant measuredAt, Instant receivedAt) {
        return new EncodedUplink(
                Ids.newId(),
                1,
                "farm",
                deviceType,
                "dev-1",
                fPort,
                payload,
                receivedAt,
                measuredAt,
                Map.of("rssi", -40));
    }

    @Test
    void shouldBeEqualForARetryReceivedLaterWithOtherNetworkMetadata() {
        var first = uplink("em300th", 85, new byte[] {1, 2, 3}, MEASURED, Instant.now());
        var retry = new EncodedUplink(
                first.id(),
                1,
                "farm",
                "em300th",
                "dev-1",
                85,
                new byte[] {1, 2, 3},
                Instant.now().plusSeconds(60),
                MEASURED,
                Map.of("rssi", -90));

        assertThat(UplinkDigest.of(retry)).isEqualTo(UplinkDigest.of(first));
    }

    @Test
    void shouldDifferWhenAnythingTheSenderChoseDiffers() {
        var base = UplinkDigest.of(uplink("em300th", 85, new byte[] {1, 2, 3}, MEASURED, Instant.now()));

        assertThat(UplinkDigest.of(uplink("em300th", 85, new byte[] {1, 2, 4}, MEASURED, Instant.now())))
                .isNotEqualTo(base);
        assertThat(UplinkDigest.of(uplink("em300th", 86, new byte[] {1, 2, 3}, MEASURED, Instant.now())))
                .isNotEqualTo(base);
        assertThat(UplinkDigest.of(uplink("em300th", null, new byte[] {1, 2, 3}, MEASURED, Instant.now())))
                .isNotEqualTo(base);
        assertThat(UplinkDigest.of(uplink("lht65", 85, new byte[] {1, 2, 3}, MEASURED, Instant.now())))
                .isNotEqualTo(base);
        assertThat(UplinkDigest.of(uplink("em300th", 85, new byte[] {1, 2, 3}, MEASURED.plusNanos(1), Instant.now())))
                .isNotEqualTo(base);
        assertThat(UplinkDigest.of(uplink("em300th", 85, new byte[] {1, 2, 3}, null, Instant.now())))
                .isNotEqualTo(base);
    }

    @Test
    void shouldTravelInAHeaderAndReadAsNullWhenAbsent() {
        var headers = new RecordHeaders();
        assertThat(UplinkDigest.read(headers)).isNull();

        UplinkDigest.add(headers, -42L);

        assertThat(UplinkDigest.read(headers)).isEqualTo(-42L);
    }
}
