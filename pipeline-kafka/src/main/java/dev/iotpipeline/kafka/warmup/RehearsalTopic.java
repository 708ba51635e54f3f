package dev.iotpipeline.kafka.warmup;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;

/**
 * A topic of one warm-up's own, so that a service's records can go through its real producer and consumer before
 * readiness without reaching a pipeline topic: named {@code _iot-pipeline-warmup-<service>-<random>} (two instances
 * warming at once do not share one), deleted on close; should a kill -9 leave it behind, its records are kept a
 * minute at most, and the empty topic stays until deleted ({@link #PREFIX} finds every one).
 */
public final class RehearsalTopic implements AutoCloseable {

    /** Every rehearsal topic's name starts with it. */
    public static final String PREFIX = "_iot-pipeline-warmup-";

    private final String name;
    private final int partitions;
    private final Admin admin;

    private RehearsalTopic(String name, int partitions, Admin admin) {
        this.name = name;
        this.partitions = partitions;
        this.admin = admin;
    }

    /** A fresh name for {@code service}'s rehearsal topic, drawn at random. */
    public static String freshName(String service) {
        var suffix = new byte[6];
        new SecureRandom().nextBytes(suffix);
        return PREFIX + service + "-" + HexFormat.of().formatHex(suffix);
    }

    /**
     * Creates the topic with {@code partitions} and {@code replicationFactor} (a pipeline topic's, so that acks=all
     * waits for the same replicas) and returns once every partition's leader serves it and the producer that
     * {@code partitionsFor} asks (a producer's or a {@code KafkaTemplate}'s {@code partitionsFor}) knows them;
     * {@code admin} is closed with the topic.
     */
    public static RehearsalTopic create(
            String name, int partitions, short replicationFactor, Admin admin, Consumer<String> partitionsFor)
            throws Exception {
        try {
            var topic = new NewTopic(name, partitions, replicationFactor)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "60000", TopicConfig.SEGMENT_MS_CONFIG, "60000"));
            admin.createTopics(List.of(topic)).all().get(10, TimeUnit.SECONDS);
            // Answered by each partition's leader once it serves the partition: a broker names itself leader in its
            // metadata a moment before it does, and a produce in that moment is refused with a warning in the log.
            var latest = new HashMap<TopicPartition, OffsetSpec>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(name, p), OffsetSpec.latest());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try {
                    admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
                    break;
                } catch (ExecutionException e) {
                    // The admin client's metadata may not name a topic created a moment ago yet.
                    if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(50);
                }
            }
            // The producer learns the new topic's leaders now rather than in the first rehearsal's send.
            partitionsFor.accept(name);
            return new RehearsalTopic(name, partitions, admin);
        } catch (Exception e) {
            admin.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    /** Its partitions, for a consumer that reads it without a group. */
    public List<TopicPartition> partitions() {
        return IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartition(name, p))
                .toList();
    }

    @Override
    public void close() throws Exception {
        try (admin) {
            admin.deleteTopics(List.of(name)).all().get(10, TimeUnit.SECONDS);
        }
    }
}
