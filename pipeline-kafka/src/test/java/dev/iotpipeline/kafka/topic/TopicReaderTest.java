package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TopicReaderTest {

    private static final String TOPIC = "t";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    // MockConsumer does not implement offsetsForTimes: timestamps here are the offsets times 1000.
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("none") {
        @Override
        public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> query) {
            var found = new HashMap<TopicPartition, OffsetAndTimestamp>();
            query.forEach((tp, time) -> {
                long offset = (time + 999) / 1000;
                found.put(tp, offset < held.get(tp) ? new OffsetAndTimestamp(offset, offset * 1000) : null);
            });
            return found;
        }
    };
    private final Map<TopicPartition, Long> held = new HashMap<>();
    private final TopicReader reader = new TopicReader(consumer, TOPIC);

    @Test
    void shouldReadFromTheBeginningUpToTheEndsTakenWhenAssigned() throws Exception {
        // given two partitions holding 3 and 2 records
        topic(Map.of(P0, 3L, P1, 2L));
        reader.seekToBeginning();
        // and a record published after the reader was assigned
        consumer.addRecord(record(P0, 3));

        // when
        var read = new ArrayList<String>();
        boolean complete = reader.read(r -> read.add(r.partition() + "@" + r.offset()), deleted -> true);

        // then
        assertThat(complete).isTrue();
        assertThat(read).containsExactlyInAnyOrder("0@0", "0@1", "0@2", "1@0", "1@1");
        assertThat(reader.ends()).isEqualTo(Map.of(P0, 3L, P1, 2L));
    }

    @Test
    void shouldStopWhenTheHandlerSaysSo() throws Exception {
        // given
        topic(Map.of(P0, 5L));
        reader.seekToBeginning();

        // when the handler stops at the second record
        var read = new ArrayList<Long>();
        boolean complete = reader.read(r -> read.add(r.offset()) && r.offset() < 1, deleted -> true);

        // then
        assertThat(complete).isFalse();
        assertThat(read).containsExactly(0L, 1L);
    }

    @Test
    void shouldSeekToOffsetsAndTimesAndReadAnOffsetPastTheEndAsTheEnd() throws Exception {
        // given
        topic(Map.of(P0, 4L, P1, 4L));

        // when P0 starts at offset 2 and P1 past its end
        reader.seek(Map.of(P0, 2L, P1, 9L));

        // then
        assertThat(reader.positions()).isEqualTo(Map.of(0, 2L, 1, 4L));
        assertThat(offsets()).containsExactly(2L, 3L);
        // and a time finds the first record at or after it, or the end where there is none
        assertThat(reader.offsetsAt(1500, List.of(P0))).isEqualTo(Map.of(P0, 2L));
        assertThat(reader.offsetsAt(60_000, List.of(P0))).isEqualTo(Map.of(P0, 4L));
    }

    @Test
    void shouldReportAPositionRetentionDeletedAndGoOnFromTheFirstRecordHeld() throws Exception {
        // given a reader at offset 1 of a partition whose records below 3 retention then deleted
        topic(Map.of(P0, 5L));
        reader.seek(Map.of(P0, 1L));
        consumer.updateBeginningOffsets(Map.of(P0, 3L));
        consumer.setPollException(new OffsetOutOfRangeException(Map.of(P0, 1L)));

        // when
        var deleted = new ArrayList<Map<TopicPartition, Long>>();
        var read = new ArrayList<Long>();
        boolean complete = reader.read(r -> read.add(r.offset()), d -> deleted.add(d));

        // then
        assertThat(complete).isTrue();
        assertThat(deleted).containsExactly(Map.of(P0, 1L));
        assertThat(read).containsExactly(3L, 4L);
    }

    @Test
    void shouldStopWhenTheDeletedPositionsSaySo() throws Exception {
        // given
        topic(Map.of(P0, 5L));
        reader.seek(Map.of(P0, 1L));
        consumer.updateBeginningOffsets(Map.of(P0, 3L));
        consumer.setPollException(new OffsetOutOfRangeException(Map.of(P0, 1L)));

        // when, then
        assertThat(reader.read(r -> true, d -> false)).isFalse();
    }

    @Test
    void shouldFollowPastTheEndAndSayOnceWhenCaughtUp() throws Exception {
        // given
        topic(Map.of(P0, 2L));
        reader.seekToBeginning();
        consumer.addRecord(record(P0, 2));
        consumer.setMaxPollRecords(2);

        // when following until the record after the end
        var caughtUp = new ArrayList<Long>();
        var read = new ArrayList<Long>();
        reader.follow(r -> read.add(r.offset()) && r.offset() < 2, () -> caughtUp.add(consumer.position(P0)));

        // then
        assertThat(read).containsExactly(0L, 1L, 2L);
        assertThat(caughtUp).hasSize(1);
    }

    @Test
    void shouldSayCaughtUpAtOnceWhenStartingAtTheEnd() throws Exception {
        // given
        topic(Map.of(P0, 2L));
        reader.seekToEnd();
        consumer.addRecord(record(P0, 2));

        // when
        var caughtUp = new ArrayList<Boolean>();
        var read = new ArrayList<Long>();
        reader.follow(r -> read.add(r.offset()) && false, () -> caughtUp.add(read.isEmpty()));

        // then
        assertThat(reader.positions()).isEqualTo(Map.of(0, 3L));
        assertThat(caughtUp).containsExactly(true);
        assertThat(read).containsExactly(2L);
    }

    @Test
    void shouldAssignNothingWhileTheTopicDoesNotExist() {
        assertThat(reader.assign()).isFalse();
        assertThat(reader.partitions()).isEmpty();
        assertThat(reader.ends()).isEmpty();
    }

    @Test
    void shouldLetTheBrokerHoldAnIdleReadersFetchForSecondsButNeverPastHalfTheRequestTimeout() {
        assertThat(TopicReader.idleFetchWaitMs(Map.of())).isEqualTo(5000);
        assertThat(TopicReader.idleFetchWaitMs(Map.of(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000")))
                .isEqualTo(5000);
        assertThat(TopicReader.idleFetchWaitMs(Map.of(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000)))
                .isEqualTo(1500);
    }

    /** Partitions holding records from offset 0 up to {@code ends}, assigned to the reader. */
    private void topic(Map<TopicPartition, Long> ends) {
        var infos = new ArrayList<PartitionInfo>();
        var beginnings = new HashMap<TopicPartition, Long>();
        ends.forEach((tp, end) -> {
            infos.add(new PartitionInfo(TOPIC, tp.partition(), null, null, null));
            beginnings.put(tp, 0L);
        });
        held.putAll(ends);
        consumer.updatePartitions(TOPIC, infos);
        consumer.updateBeginningOffsets(beginnings);
        consumer.updateEndOffsets(ends);
        assertThat(reader.assign()).isTrue();
        // MockConsumer takes records only for partitions already assigned.
        ends.forEach((tp, end) -> {
            for (long offset = 0; offset < end; offset++) {
                consumer.addRecord(record(tp, offset));
            }
        });
    }

    private List<Long> offsets() throws InterruptedException {
        var read = new ArrayList<Long>();
        reader.read(r -> read.add(r.offset()), deleted -> true);
        return read;
    }

    private static ConsumerRecord<String, byte[]> record(TopicPartition tp, long offset) {
        return new ConsumerRecord<>(TOPIC, tp.partition(), offset, "k", new byte[] {(byte) offset});
    }
}
