package dev.iotpipeline.kafka.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A tail on a stand-in consumer: what it reads, and that a failed read does not end it. */
class TopicTailTest {

    private static final String TOPIC = "registry";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("none");
    private final List<Long> read = new CopyOnWriteArrayList<>();

    @Test
    void aReadThatFailsAfterTheCatchUpIsFollowedByTheRecordsAfterIt() throws Exception {
        consumer.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
        consumer.updateBeginningOffsets(Map.of(P0, 0L));
        consumer.updateEndOffsets(Map.of(P0, 0L));
        try (var tail = new TopicTail(
                        new TopicReader(consumer, TOPIC), TOPIC, TopicTail.Start.BEGINNING, r -> read.add(r.offset()))
                .startReading()) {
            assertThat(tail.awaitCaughtUp(Duration.ofSeconds(10))).isTrue();

            consumer.setPollException(new KafkaException("the broker refused the fetch"));
            consumer.schedulePollTask(() -> consumer.addRecord(record(0)));

            await().atMost(Duration.ofSeconds(10)).until(() -> read.contains(0L));
            consumer.schedulePollTask(() -> consumer.addRecord(record(1)));
            await().atMost(Duration.ofSeconds(10)).until(() -> read.equals(List.of(0L, 1L)));
        }
    }

    @Test
    void readsThatKeepFailingWaitLongerEachTimeUpToHalfAMinute() {
        assertThat(IntStream.rangeClosed(1, 7).mapToObj(TopicTail::retryDelay).map(Duration::toSeconds))
                .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L);
        assertThat(TopicTail.retryDelay(Integer.MAX_VALUE)).isEqualTo(TopicTail.MAX_RETRY);
    }

    private static ConsumerRecord<String, byte[]> record(long offset) {
        return new ConsumerRecord<>(TOPIC, 0, offset, "k", new byte[] {(byte) offset});
    }
}
