package dev.iotpipeline.notify.live.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.notify.live.feed.LiveStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetentionGapTest {

    private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
    private static final RetentionGap.Retained DELETED_UP_TO_40 = new RetentionGap.Retained(40, 40L, T);

    @Test
    void shouldFindAGapWhenTheRequestedOffsetWasDeleted() {
        assertThat(RetentionGap.fromOffset(2, 12, DELETED_UP_TO_40))
                .hasValue(new RetentionGap.Lost(2, 12L, null, 40, T));
    }

    @Test
    void shouldFindNoGapFromAnOffsetStillRetained() {
        assertThat(RetentionGap.fromOffset(2, 40, DELETED_UP_TO_40)).isEmpty();
        assertThat(RetentionGap.fromOffset(2, 55, DELETED_UP_TO_40)).isEmpty();
    }

    @Test
    void shouldFindAGapFromATimeAtOrBeforeTheFirstRetainedRecordOnceRecordsWereDeleted() {
        assertThat(RetentionGap.fromTime(0, T.minusSeconds(60), DELETED_UP_TO_40))
                .hasValue(new RetentionGap.Lost(0, null, T.minusSeconds(60), 40, T));
        assertThat(RetentionGap.fromTime(0, T, DELETED_UP_TO_40)).isPresent();
    }

    @Test
    void shouldFindNoGapFromATimeAfterTheFirstRetainedRecord() {
        assertThat(RetentionGap.fromTime(0, T.plusMillis(1), DELETED_UP_TO_40)).isEmpty();
    }

    @Test
    void shouldFindNoGapFromAnyTimeWhenNothingWasDeleted() {
        var whole = new RetentionGap.Retained(0, 0L, T);

        assertThat(RetentionGap.fromTime(0, Instant.EPOCH, whole)).isEmpty();
        assertThat(RetentionGap.fromOffset(0, 0, whole)).isEmpty();
    }

    @Test
    void shouldCountAPartitionRetentionEmptiedAsAGapFromAnyTime() {
        var emptied = new RetentionGap.Retained(40, null, null);

        assertThat(RetentionGap.fromTime(1, T.plusSeconds(3600), emptied))
                .hasValue(new RetentionGap.Lost(1, null, T.plusSeconds(3600), 40, null));
    }

    @Test
    void shouldNameThePartitionsAndTheTimeEveryLostEventPrecedes() {
        var later = T.plusSeconds(5);
        var message = EventJson.mapper()
                .readTree(RetentionGap.message(
                        "s1",
                        LiveStream.DATA_UNITS,
                        List.of(
                                new RetentionGap.Lost(2, 12L, null, 40, later),
                                new RetentionGap.Lost(0, null, T.minusSeconds(60), 7, T)),
                        T.plusSeconds(60)));

        assertThat(message.get("type").asString()).isEqualTo("gap");
        assertThat(message.get("id").asString()).isEqualTo("s1");
        assertThat(message.get("stream").asString()).isEqualTo("data-units");
        assertThat(message.get("partitions")
                        .valueStream()
                        .map(p -> p.get("partition").asInt()))
                .containsExactly(0, 2);
        var first = message.get("partitions").get(0);
        assertThat(first.get("requestedTime").asString())
                .isEqualTo(T.minusSeconds(60).toString());
        assertThat(first.get("firstRetainedOffset").asLong()).isEqualTo(7);
        assertThat(first.get("firstRetainedAt").asString()).isEqualTo(T.toString());
        assertThat(message.get("partitions").get(1).get("requestedOffset").asLong())
                .isEqualTo(12);
        assertThat(message.get("lostBefore").asString()).isEqualTo(later.toString());
        assertThat(message.get("detail").asString()).contains("partitions 0, 2", later.toString(), "GET /data-units");
    }

    @Test
    void shouldSayEventsBeforeNowAreLostWhenAPartitionHoldsNothing() {
        var now = T.plusSeconds(60);

        assertThat(RetentionGap.lostBefore(
                        List.of(new RetentionGap.Lost(0, 3L, null, 9, T), new RetentionGap.Lost(1, 3L, null, 9, null)),
                        now))
                .isEqualTo(now);
    }
}
