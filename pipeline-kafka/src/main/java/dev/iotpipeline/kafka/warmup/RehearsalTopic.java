package dev.iotpipeline.kafka.warmup;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topic of one warm-up's own, so that a service's records can go through its real producer and consumer before
 * readiness without reaching a pipeline topic: named {@code _iot-pipeline-warmup-<service>-<epoch second>-<random>}
 * (two instances warming at once do not share one), deleted on close; should a kill -9 leave it behind, its records
 * are kept a minute at most, and the next warm-up anywhere deletes it once it is {@link #STALE_AFTER} old.
 */
public final class RehearsalTopic implements AutoCloseable {

    /** Every rehearsal topic's name starts with it. */
    public static final String PREFIX = "_iot-pipeline-warmup-";

    /**
     * A rehearsal topic older than this by its name is one a warm-up cut short left behind (a warm-up lasts seconds;
     * the margin covers clocks that disagree between hosts).
     */
    static final Duration STALE_AFTER = Duration.ofMinutes(10);

    private static final Logger log = LoggerFactory.getLogger(RehearsalTopic.class);

    private final String name;
    private final int partitions;
    private final Admin admin;

    private RehearsalTopic(String name, int partitions, Admin admin) {
        this.name = name;
        this.partitions = partitions;
        this.admin = admin;
    }

    /** A fresh name for {@code service}'s rehearsal topic: the time now and a part drawn at random. */
    public static String freshName(String service) {
        return freshName(service, Instant.now());
    }

    static String freshName(String service, Instant now) {
        var suffix = new byte[6];
        new SecureRandom().nextBytes(suffix);
        return PREFIX + service + "-" + now.getEpochSecond() + "-"
                + HexFormat.of().formatHex(suffix);
    }

    /** Whether {@code name} is a rehearsal topic whose name says it was created before {@code cutoff}. */
    static boolean createdBefore(String name, Instant cutoff) {
        if (!name.startsWith(PREFIX)) {
            return false;
        }
        var parts = name.split("-");
        if (parts.length < 4) {
            return false;
        }
        try {
            return Instant.ofEpochSecond(Long.parseLong(parts[parts.length - 2]))
                    .isBefore(cutoff);
        } catch (NumberFormatException e) {
            return false;
        }
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
            sweep(admin, Instant.now().minus(STALE_AFTER));
            var topic = new NewTopic(name, partitions, replicationFactor)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "60000", TopicConfig.SEGMENT_MS_CONFIG, "60000"));
            admin.createTopics(List.of(topic)).all().get(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // Described first: a listOffsets for a topic the broker's metadata does not name yet is retried below,
            // but the admin client logs that first refusal at ERROR, on the console of every start.
            while (true) {
                try {
                    var described = admin.describeTopics(List.of(name))
                            .allTopicNames()
                            .get(10, TimeUnit.SECONDS)
                            .get(name);
                    if (described.partitions().stream().allMatch(p -> p.leader() != null)) {
                        break;
                    }
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("no leader for every partition of " + name + " within 10 s");
                }
                Thread.sleep(50);
            }
            // Answered by each partition's leader once it serves the partition: a broker names itself leader in its
            // metadata a moment before it does, and a produce in that moment is refused with a warning in the log.
            var latest = new HashMap<TopicPartition, OffsetSpec>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(name, p), OffsetSpec.latest());
            }
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

    /** Deletes the rehearsal topics created before {@code cutoff}; a failure only costs the sweep. */
    private static void sweep(Admin admin, Instant cutoff) throws InterruptedException {
        try {
            var stale = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
                    .filter(topic -> createdBefore(topic, cutoff))
                    .toList();
            if (!stale.isEmpty()) {
                admin.deleteTopics(stale).all().get(10, TimeUnit.SECONDS);
                log.info("Deleted {} rehearsal topics that warm-ups cut short left behind: {}", stale.size(), stale);
            }
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Could not delete the rehearsal topics left behind: {}", e.toString());
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
