package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import dev.iotpipeline.web.warmup.Warmup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaOperations;

/**
 * The decoder's hot path before readiness: encoded uplinks written to a {@link RehearsalTopic} of its own, read back
 * by a consumer configured as the listener's, and handed poll by poll to an {@link UplinkListener} like the real one,
 * which decodes them with every known device type's codec (JavaScript ones included) and writes their data units,
 * with acks=all, to a second topic of the warm-up's own instead of data-units; so the first uplinks after readiness
 * meet neither a cold fetch, decode and send path nor the listener's own code run for the first time.
 */
final class DecoderWarmup implements Warmup, AutoCloseable {

    /** An EM300-TH reading; other codecs may refuse it, which exercises their error path instead. */
    private static final byte[] PAYLOAD = HexFormat.of().parseHex("01755C03673401046865");

    /** Enough types to warm the engines, not so many that a large registry takes the whole budget to visit. */
    private static final int MAX_TYPES = 32;

    /**
     * Uplinks written a round, each round one poll of about what a poll brings once the seed shape's first waves
     * spread. The rounds, not the uplinks, run the per-poll code; at startup the budget holds a few dozen, which
     * compiles the listener's per-record code but not yet its per-poll code
     * (docs/benchmarks/raw/experiments/decoder-listener-rehearsal.md).
     */
    private static final int PER_ROUND = 10;

    /** How long close waits for the listener's writes before the topics go. */
    private static final Duration WRITES_TIMEOUT = Duration.ofSeconds(10);

    private final Function<String, UplinkListener> listeners;
    private final Supplier<List<String>> deviceTypes;
    private final KafkaOperations<String, Object> kafka;
    private final Supplier<Admin> admins;
    private final Supplier<Consumer<String, byte[]>> consumers;
    private final short replicationFactor;
    private final List<CompletableFuture<?>> writes = new ArrayList<>();
    private List<String> types = List.of();
    /** From the rehearsal topics' creation to their deletion; null while there are none. */
    private RehearsalTopic uplinks;

    private RehearsalTopic dataUnits;
    private Consumer<String, byte[]> consumer;
    private UplinkListener listener;

    /**
     * @param listeners a listener as the real one, writing its data units and dead letters to the topic named, with
     *     meters of its own
     * @param admins an admin client for a rehearsal topic's creation and deletion, closed with the topic
     * @param consumers a consumer as the listener's (deserializers, fetch settings); it reads the rehearsal topic by
     *     assignment, so it joins no group and commits nothing
     * @param replicationFactor data-units', so that acks=all waits for the same replicas
     */
    DecoderWarmup(
            Function<String, UplinkListener> listeners,
            Supplier<List<String>> deviceTypes,
            KafkaOperations<String, Object> kafka,
            Supplier<Admin> admins,
            Supplier<Consumer<String, byte[]>> consumers,
            short replicationFactor) {
        this.listeners = listeners;
        this.deviceTypes = deviceTypes;
        this.kafka = kafka;
        this.admins = admins;
        this.consumers = consumers;
        this.replicationFactor = replicationFactor;
    }

    @Override
    public String name() {
        return "decoder";
    }

    @Override
    public void exercise(int round) throws Exception {
        if (round == 0) {
            // data-units' (the decoder's own topic; uplinks.encoded is ingest's, which may not have started yet).
            int partitions =
                    kafka.partitionsFor(PipelineTopic.DATA_UNITS.topicName()).size();
            var known = deviceTypes.get();
            types = known.isEmpty() ? List.of("em300th") : known.subList(0, Math.min(MAX_TYPES, known.size()));
            uplinks = RehearsalTopic.create(
                    RehearsalTopic.freshName("decoder"),
                    partitions,
                    replicationFactor,
                    admins.get(),
                    kafka::partitionsFor);
            dataUnits = RehearsalTopic.create(
                    RehearsalTopic.freshName("decoder"),
                    partitions,
                    replicationFactor,
                    admins.get(),
                    kafka::partitionsFor);
            consumer = consumers.get();
            consumer.assign(uplinks.partitions());
            consumer.seekToBeginning(uplinks.partitions());
            listener = listeners.apply(dataUnits.name());
        }
        var now = Instant.now();
        for (int i = 0; i < PER_ROUND; i++) {
            int n = round * PER_ROUND + i;
            var uplink = new EncodedUplink(
                    new UUID(0, n),
                    EncodedUplink.SCHEMA_VERSION,
                    "warmup",
                    types.get(n % types.size()),
                    "warmup-" + n % 1000,
                    85,
                    PAYLOAD,
                    now,
                    now,
                    Map.of());
            writes.add(kafka.send(new ProducerRecord<>(uplinks.name(), uplink.deviceId(), EventJson.write(uplink))));
        }
        // Sent now rather than after the producer's linger, so that this round's poll finds them: the rounds, not the
        // uplinks, are what the per-poll code needs.
        kafka.flush();
        var polled = consumer.poll(Duration.ofMillis(100));
        if (!polled.isEmpty()) {
            var records = new ArrayList<ConsumerRecord<String, byte[]>>(polled.count());
            polled.forEach(records::add);
            // Acknowledged to no one: the consumer commits nothing.
            listener.onBatch(records, () -> {}, consumer);
        }
        // Acknowledged by the flush; a failed write fails the warm-up.
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        writes.clear();
    }

    /** Waits up to {@code timeout} for the data units and dead letters the listener wrote; false if one failed. */
    boolean awaitListenerWrites(Duration timeout) throws InterruptedException {
        return listener == null || listener.awaitWrites(timeout);
    }

    @Override
    public void close() throws Exception {
        try {
            // Its writes land before their topic goes, or the producer would log them failing.
            awaitListenerWrites(WRITES_TIMEOUT);
            listener = null;
        } finally {
            if (consumer != null) {
                consumer.close();
                consumer = null;
            }
            for (var topic : new RehearsalTopic[] {uplinks, dataUnits}) {
                if (topic != null) {
                    topic.close();
                }
            }
            uplinks = null;
            dataUnits = null;
        }
    }
}
