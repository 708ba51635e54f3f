package dev.iotpipeline.kafka.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.MessageListenerContainer;

/** The error handler as a batch listener's container drives it: which record is retried, which dead-lettered. */
class RetryPolicyTest {

    private static final TopicPartition PARTITION = new TopicPartition("data-units", 0);

    private final List<ConsumerRecord<?, ?>> deadLettered = new ArrayList<>();
    private final DefaultErrorHandler handler = new RetryPolicy(Duration.ofMillis(1), Duration.ofMillis(2))
            .errorHandler((record, e) -> deadLettered.add(record));
    private final MockConsumer<String, String> consumer = new MockConsumer<>("earliest");
    private final ConsumerRecords<String, String> batch = new ConsumerRecords<>(
            Map.of(
                    PARTITION,
                    List.of(
                            new ConsumerRecord<>(PARTITION.topic(), 0, 0, "dev-1", "a"),
                            new ConsumerRecord<>(PARTITION.topic(), 0, 1, "dev-2", "b"),
                            new ConsumerRecord<>(PARTITION.topic(), 0, 2, "dev-3", "c"))),
            Map.of());

    @BeforeEach
    void assign() {
        consumer.assign(List.of(PARTITION));
        consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
    }

    @Test
    void shouldDeadLetterOnlyTheUnprocessableRecordAndCommitTheOnesBeforeIt() {
        fail(1, new UnprocessableRecordException("malformed-event", "not a DataUnit", null));

        assertThat(deadLettered).extracting(ConsumerRecord::offset).containsExactly(1L);
        assertThat(consumer.committed(Set.of(PARTITION)).get(PARTITION).offset())
                .isEqualTo(2);
        assertThat(consumer.position(PARTITION))
                .as("the rest of the batch comes again")
                .isEqualTo(2);
    }

    @Test
    void shouldRetryATransientFailureWithoutLimit() {
        for (int attempt = 0; attempt < 50; attempt++) {
            fail(1, new DataAccessResourceFailureException("database is away"));
        }

        assertThat(deadLettered).isEmpty();
        assertThat(consumer.committed(Set.of(PARTITION)).get(PARTITION).offset())
                .isEqualTo(1);
        assertThat(consumer.position(PARTITION)).isEqualTo(1);
    }

    @Test
    void shouldDeadLetterAnUnclassifiedFailureAfterAFewAttempts() {
        for (int attempt = 1; attempt < RetryPolicy.UNCLASSIFIED_ATTEMPTS; attempt++) {
            fail(0, new IllegalStateException("bug"));
            assertThat(deadLettered).isEmpty();
        }

        fail(0, new IllegalStateException("bug"));

        assertThat(deadLettered).extracting(ConsumerRecord::offset).containsExactly(0L);
    }

    /** What the container does when the batch listener throws BatchListenerFailedException at {@code index}. */
    private void fail(int index, Exception cause) {
        var thrown = new ListenerExecutionFailedException(
                "listener failed",
                "notify-store",
                new BatchListenerFailedException("record " + index + " failed", cause, index));
        catchThrowable(() -> handler.handleBatchAndReturnRemaining(thrown, batch, consumer, new Container(), () -> {}));
    }

    /** Just what the error handler asks of a container; not running, so back-offs do not sleep. */
    private static final class Container implements MessageListenerContainer {

        private final ContainerProperties properties = new ContainerProperties(PARTITION.topic());

        @Override
        public ContainerProperties getContainerProperties() {
            return properties;
        }

        @Override
        public void setupMessageListener(Object messageListener) {}

        @Override
        public Map<String, Map<MetricName, ? extends Metric>> metrics() {
            return Map.of();
        }

        @Override
        public void start() {}

        @Override
        public void stop() {}

        @Override
        public boolean isRunning() {
            return false;
        }
    }
}
