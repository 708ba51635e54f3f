package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.tracing.RecordTracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.mock.MockProducerFactory;

/**
 * Whether the next poll waits for a batch's writes: not after a partial poll (the live path), but after a full one (a
 * backlog, where polling on would only split the next batch's writes into more produce requests).
 */
class UplinkListenerPipeliningTest {

    private static final int FULL_POLL = 3;

    private final MockProducer<String, Object> producer = new KeptOpen();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final UplinkListener listener = new UplinkListener(
            new UplinkDecoder(type -> Optional.empty(), Clock.systemUTC()),
            UplinkListener.Outputs.PIPELINE,
            new KafkaTemplate<>(new MockProducerFactory<>(() -> producer)),
            Duration.ofSeconds(30),
            // Never sent at once: MockProducer's flush would complete the writes this test holds back.
            1,
            1_000,
            0,
            new OrderedAcks(Duration.ofMillis(10), System::nanoTime),
            4,
            FULL_POLL,
            new DecoderMetrics(new SimpleMeterRegistry()),
            new RecordTracing(ObservationRegistry.NOOP, "decoder", "decoder"));
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    private long nextOffset;

    @Test
    @Timeout(10) // a poll that waited for its writes would wait out the send timeout, 30 s
    void pollsOnWhileAPartialPollsWritesAreInFlight() throws InterruptedException {
        listener.onBatch(poll(FULL_POLL - 1), acknowledged::incrementAndGet, consumer);
        listener.onBatch(poll(FULL_POLL - 1), acknowledged::incrementAndGet, consumer);

        assertThat(producer.history()).as("every uplink's dead letter sent").hasSize(2 * (FULL_POLL - 1));
        assertThat(producer.completeNext()).as("writes still in flight").isTrue();
        assertThat(acknowledged).as("nothing committed ahead of its writes").hasValue(0);
    }

    @Test
    void waitsForAFullPollsWritesBeforeTheNextPoll() {
        var full = CompletableFuture.runAsync(() -> {
            try {
                listener.onBatch(poll(FULL_POLL), acknowledged::incrementAndGet, consumer);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> producer.history().size() == FULL_POLL);
        Awaitility.await()
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> !full.isDone());

        while (producer.completeNext()) {
            // One write acknowledged at a time, in the order sent.
        }
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(full::isDone);
        assertThat(full).isNotCompletedExceptionally();
    }

    private List<ConsumerRecord<String, byte[]>> poll(int count) {
        var records = new ArrayList<ConsumerRecord<String, byte[]>>();
        for (int i = 0; i < count; i++) {
            records.add(new ConsumerRecord<>(
                    "uplinks.encoded", 0, nextOffset++, "dev-1", "not json".getBytes(StandardCharsets.UTF_8)));
        }
        return records;
    }

    /** The template closes its producer after each send; the writes it holds back must stay pending. */
    private static final class KeptOpen extends MockProducer<String, Object> {

        KeptOpen() {
            super(false, null, new StringSerializer(), (topic, value) -> new byte[0]);
        }

        @Override
        public void close() {}

        @Override
        public void close(Duration timeout) {}
    }
}
