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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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

    private final MockProducer<String, byte[]> producer = new KeptOpen();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final DeadLetterRecoverer recoverer = new DeadLetterRecoverer(
            new KafkaTemplate<>(new MockProducerFactory<>(() -> producer)),
            PipelineTopic.EVENTS_DEAD_LETTER,
            DeadLetterHeaders.STAGE_STORE,
            "notify-store",
            Clock.fixed(NOW, ZoneOffset.UTC),
            meters);
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

    private static String header(ProducerRecord<?, ?> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The template closes its producer after each send; the test reads what was sent afterwards. */
    private static final class KeptOpen extends MockProducer<String, byte[]> {

        KeptOpen() {
            super(true, null, new StringSerializer(), new ByteArraySerializer());
        }

        @Override
        public void close() {}

        @Override
        public void close(Duration timeout) {}
    }
}
