package dev.iotpipeline.kafka.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.topic.PipelineTopic;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.mock.MockProducerFactory;
import org.springframework.kafka.support.KafkaHeaders;

class DeadLetterRecovererTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private final MockProducer<String, byte[]> producer = new KeptOpen(Integer.MAX_VALUE);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final DeadLetterRecoverer recoverer = recoverer(producer);
    private final ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(
            "data-units", 2, 41, "dev\u0000-1", "{\"deviceId\":\"dev\\u0000-1\"}".getBytes(StandardCharsets.UTF_8));

    @Test
    void shouldSendTheRecordUnchangedWithItsCauseAndTheFailureUnderTheContainersWrappers() {
        var refused = new DataIntegrityViolationException(
                "invalid byte sequence for encoding \"UTF8\": 0x00",
                new SQLException("invalid byte sequence", "22021"));
        var thrown = new ListenerExecutionFailedException(
                "Listener failed",
                "notify-store",
                new BatchListenerFailedException(
                        "History store refused a row",
                        new UnprocessableRecordException(
                                DeadLetterHeaders.CAUSE_REJECTED_BY_STORE,
                                "refused by the history store: 0x00",
                                refused),
                        4));

        recoverer.accept(record, null, thrown);

        var dead = producer.history().getFirst();
        assertThat(dead.topic()).isEqualTo("events.dead-letter");
        assertThat(dead.partition())
                .as("the producer chooses by key, not the source partition")
                .isNull();
        assertThat(dead.key()).isEqualTo(record.key());
        assertThat(dead.value()).isEqualTo(record.value());
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo("rejected-by-store");
        assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo("refused by the history store: 0x00");
        assertThat(header(dead, DeadLetterHeaders.STAGE)).isEqualTo("store");
        assertThat(header(dead, DeadLetterHeaders.SOURCE)).isEqualTo("data-units-2@41");
        assertThat(header(dead, DeadLetterHeaders.FAILED_AT)).isEqualTo(NOW.toString());
        assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_TOPIC)).isEqualTo("data-units");
        assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP)).isEqualTo("notify-store");
        assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_FQCN))
                .isEqualTo(DataIntegrityViolationException.class.getName());
        assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN)).isEqualTo(SQLException.class.getName());
        assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_MESSAGE)).contains("0x00");
        assertThat(dead.headers().headers(KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP))
                .hasSize(1);
        assertThat(meters.get("pipeline.dead.letters")
                        .tags("topic", "events.dead-letter", "stage", "store", "cause", "rejected-by-store")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void shouldCallAFailureThatNamesNoCauseAProcessingError() {
        recoverer.accept(record, null, new IllegalStateException("bug"));

        var dead = producer.history().getFirst();
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo("processing-error");
        assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo("bug");
        assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP)).isEqualTo("notify-store");
    }

    @Test
    void shouldPublishADeadLetterTooLargeForTheTopicWithoutItsStackTrace() {
        var small = new KeptOpen(8_000);
        var failed = new ConsumerRecord<>("data-units", 0, 7, "dev-1", new byte[1_000]);

        recoverer(small).accept(failed, null, new IllegalStateException("x".repeat(10_000)));

        assertThat(small.history()).hasSize(1);
        var dead = small.history().getFirst();
        assertThat(dead.value()).isEqualTo(failed.value());
        assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_STACKTRACE)).isNull();
        assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_MESSAGE)).startsWith("xxx");
        assertThat(header(dead, DeadLetterHeaders.SOURCE)).isEqualTo("data-units-0@7");
        assertThat(header(dead, DeadLetterHeaders.VALUE_DROPPED)).isNull();
    }

    @Test
    void shouldPublishADeadLetterWithoutTheValueWhenItIsTooLargeEvenWithoutTheStackTrace() {
        var small = new KeptOpen(8_000);
        var failed = new ConsumerRecord<>("data-units", 1, 9, "dev-2", new byte[20_000]);

        recoverer(small).accept(failed, null, new IllegalStateException("bug"));

        assertThat(small.history()).hasSize(1);
        var dead = small.history().getFirst();
        assertThat(dead.value()).isNull();
        assertThat(dead.key()).isEqualTo("dev-2");
        assertThat(header(dead, DeadLetterHeaders.VALUE_DROPPED)).isEqualTo("20000");
        assertThat(header(dead, DeadLetterHeaders.SOURCE)).isEqualTo("data-units-1@9");
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo("processing-error");
        assertThat(meters.get("pipeline.dead.letters").counter().count()).isEqualTo(1);
    }

    private DeadLetterRecoverer recoverer(MockProducer<String, byte[]> producer) {
        return new DeadLetterRecoverer(
                new KafkaTemplate<>(new MockProducerFactory<>(() -> producer)),
                PipelineTopic.EVENTS_DEAD_LETTER,
                DeadLetterHeaders.STAGE_STORE,
                "notify-store",
                Clock.fixed(NOW, ZoneOffset.UTC),
                meters);
    }

    private static String header(ProducerRecord<?, ?> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /**
     * The template closes its producer after each send; the test reads what was sent afterwards. A record larger
     * than {@code maxBytes} (key, value and headers) is refused as the producer refuses one over
     * {@code max.request.size}.
     */
    private static final class KeptOpen extends MockProducer<String, byte[]> {

        private final int maxBytes;

        KeptOpen(int maxBytes) {
            super(true, null, new StringSerializer(), new ByteArraySerializer());
            this.maxBytes = maxBytes;
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
            long size = (record.key() == null ? 0 : record.key().length())
                    + (record.value() == null ? 0 : record.value().length);
            for (Header header : record.headers()) {
                size += header.key().length() + (header.value() == null ? 0 : header.value().length);
            }
            if (size > maxBytes) {
                var refused = new RecordTooLargeException("The message is " + size + " bytes");
                callback.onCompletion(null, refused);
                return CompletableFuture.failedFuture(refused);
            }
            return super.send(record, callback);
        }

        @Override
        public void close() {}

        @Override
        public void close(Duration timeout) {}
    }
}
