package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
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
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaOperations;

/**
 * The decoder's hot path before readiness: encoded uplinks written to a {@link RehearsalTopic} of its own, read back
 * by a consumer configured as the listener's, decoded with every known device type's codec (JavaScript ones
 * included), and each data unit written as the listener writes it, with acks=all, to the same topic instead of
 * data-units; so the first uplinks after readiness do not meet a cold fetch, decode and send path.
 */
final class DecoderWarmup implements Warmup, AutoCloseable {

    /** An EM300-TH reading; other codecs may refuse it, which exercises their error path instead. */
    private static final byte[] PAYLOAD = HexFormat.of().parseHex("01755C03673401046865");

    /** Enough types to warm the engines, not so many that a large registry takes the whole budget to visit. */
    private static final int MAX_TYPES = 32;

    /** Uplinks written and read back a round: a fifth of what the seed shape's first waves bring to one poll. */
    private static final int PER_ROUND = 100;

    /** Marks the data units the warm-up wrote to its topic, which its consumer reads back and leaves alone. */
    private static final String WRITTEN = "iot-warmup-data-unit";

    private final UplinkDecoder decoder;
    private final Supplier<List<String>> deviceTypes;
    private final KafkaOperations<String, Object> kafka;
    private final Supplier<Admin> admins;
    private final Supplier<Consumer<?, ?>> consumers;
    private final short replicationFactor;
    private final List<CompletableFuture<?>> writes = new ArrayList<>();
    private List<String> types = List.of();
    /** From the rehearsal topic's creation to its deletion; null while there is none. */
    private RehearsalTopic topic;

    private Consumer<?, ?> consumer;

    /**
     * @param admins an admin client for the rehearsal topic's creation and deletion, closed with the warm-up
     * @param consumers a consumer as the listener's (deserializers, fetch settings); it reads the rehearsal topic by
     *     assignment, so it joins no group and commits nothing
     * @param replicationFactor data-units', so that acks=all waits for the same replicas
     */
    DecoderWarmup(
            UplinkDecoder decoder,
            Supplier<List<String>> deviceTypes,
            KafkaOperations<String, Object> kafka,
            Supplier<Admin> admins,
            Supplier<Consumer<?, ?>> consumers,
            short replicationFactor) {
        this.decoder = decoder;
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
            topic = RehearsalTopic.create(
                    RehearsalTopic.freshName("decoder"),
                    partitions,
                    replicationFactor,
                    admins.get(),
                    kafka::partitionsFor);
            consumer = consumers.get();
            consumer.assign(topic.partitions());
            consumer.seekToBeginning(topic.partitions());
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
            writes.add(kafka.send(new ProducerRecord<>(topic.name(), uplink.deviceId(), EventJson.write(uplink))));
        }
        // What the listener does with a poll: decode each uplink and write its data unit with the uplink's digest.
        for (var record : consumer.poll(Duration.ofMillis(100))) {
            if (record.headers().lastHeader(WRITTEN) != null) {
                continue;
            }
            if (decoder.decode((byte[]) record.value()) instanceof Outcome.Decoded decoded) {
                var unit = PipelineTopic.DATA_UNITS.record(decoded.dataUnit().deviceId(), decoded.dataUnit());
                UplinkDigest.add(unit.headers(), UplinkDigest.of(decoded.uplink()));
                unit.headers().add(WRITTEN, new byte[0]);
                writes.add(
                        kafka.send(new ProducerRecord<>(topic.name(), null, unit.key(), unit.value(), unit.headers())));
            }
        }
        // As the listener waits for a batch's writes before its offsets count.
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        writes.clear();
    }

    @Override
    public void close() throws Exception {
        if (consumer != null) {
            consumer.close();
            consumer = null;
        }
        if (topic != null) {
            var created = topic;
            topic = null;
            created.close();
        }
    }
}
