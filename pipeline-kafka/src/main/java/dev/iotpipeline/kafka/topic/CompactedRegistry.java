package dev.iotpipeline.kafka.topic;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * This instance's copy of a compacted registry topic (device types, rules): read whole at start, then followed, each
 * change handed to {@code apply} (a null value is a deletion). A change this instance makes is written, waited for,
 * and applied here at once, so a read right after the write sees it; when it comes back from the topic it is
 * applied again, to the same effect.
 *
 * @param <V> the registry's entries
 */
public final class CompactedRegistry<V> implements AutoCloseable {

    /** Sends one change to the topic: a producer's send of the record the registry typed ({@code KafkaTemplate::send}). */
    @FunctionalInterface
    public interface Sender {
        CompletableFuture<?> send(ProducerRecord<String, Object> record);
    }

    /** One change of a registry: a new value for a key, or its deletion ({@code value == null}). */
    public record Change<V>(String key, V value) {}

    private final PipelineTopic<V> topic;
    private final BiConsumer<String, V> apply;
    private final TopicTail tail;

    public CompactedRegistry(Map<String, Object> kafkaClient, PipelineTopic<V> topic, BiConsumer<String, V> apply) {
        if (!topic.compacted()) {
            throw new IllegalArgumentException(topic + " is not a compacted registry topic");
        }
        this.topic = topic;
        this.apply = apply;
        this.tail = new TopicTail(
                kafkaClient,
                topic.topicName(),
                TopicTail.Start.BEGINNING,
                record -> apply.accept(record.key(), record.value() == null ? null : topic.read(record.value())));
    }

    /** Starts reading; whether everything the topic held at start was applied within {@code timeout}. */
    public boolean start(Duration timeout) throws InterruptedException {
        tail.startReading();
        return tail.awaitCaughtUp(timeout);
    }

    /** As {@link #start}, failing when the registry could not be read whole in time. */
    public CompactedRegistry<V> startOrFail(Duration timeout) throws InterruptedException {
        if (!start(timeout)) {
            throw new IllegalStateException(topic + " topic not readable within " + timeout);
        }
        return this;
    }

    public boolean isLoaded() {
        return tail.isCaughtUp();
    }

    /** Writes a change (null deletes), waits until Kafka has it, then applies it here. */
    public void write(Sender kafka, String key, V value, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        writeOnly(kafka, key, value, timeout);
        apply.accept(key, value);
    }

    /**
     * Writes many changes at once (the producer batches them), waits until Kafka has every one, then applies them here
     * in order. When a send fails, the changes Kafka took are applied by the tail as they come back.
     */
    public void writeAll(Sender kafka, List<Change<V>> changes, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        var sent = new CompletableFuture<?>[changes.size()];
        for (int i = 0; i < sent.length; i++) {
            sent[i] =
                    kafka.send(topic.record(changes.get(i).key(), changes.get(i).value()));
        }
        CompletableFuture.allOf(sent).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        changes.forEach(change -> apply.accept(change.key(), change.value()));
    }

    /** Writes a change and waits until Kafka has it; the caller applies it here in its own way. */
    public void writeOnly(Sender kafka, String key, V value, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        send(kafka, topic, key, value, timeout);
    }

    /**
     * Writes a change (null deletes) to a registry topic and waits until Kafka has it: for a writer whose instance
     * follows the topic another way (rules-service's topology reads it as a global store).
     */
    public static <V> void send(Sender kafka, PipelineTopic<V> topic, String key, V value, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        kafka.send(topic.record(key, value)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        tail.close();
    }
}
