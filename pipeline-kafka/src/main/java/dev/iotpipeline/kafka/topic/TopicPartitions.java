package dev.iotpipeline.kafka.topic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topic declarations that set the partition count only when a topic is created: growing an existing topic would
 * move devices to other partitions (their events briefly out of order) and break Kafka Streams' co-partitioning
 * of its inputs with its changelogs, so an existing topic keeps its count and a difference is logged.
 */
public final class TopicPartitions {

    private static final Logger log = LoggerFactory.getLogger(TopicPartitions.class);
    private static final int DESCRIBE_TIMEOUT_SECONDS = 10;
    private static final long POLL_MILLIS = 50;
    // Admin.close() without a timeout waits for a pending call's own timeout (default.api.timeout.ms, a minute)
    // after our get() gave up on it: a start against an unreachable broker would sit in close() that long.
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

    private TopicPartitions() {}

    /**
     * {@code declared}, each existing one with its current partition count instead of the declared one.
     *
     * @param adminConfig a Kafka admin client configuration (Spring's {@code KafkaAdmin.getConfigurationProperties()})
     */
    public static NewTopic[] keepExisting(Map<String, Object> adminConfig, NewTopic... declared) {
        try (var client = client(adminConfig)) {
            return keepExisting(client.admin(), declared);
        } catch (RuntimeException e) {
            // A client that cannot even be made is the admin's to report, with the declarations as they were.
            log.debug("Could not describe {}: {}", Arrays.toString(declared), e.toString());
            return declared;
        }
    }

    /** As {@link #keepExisting(Map, NewTopic...)}, through an admin client the caller holds. */
    static NewTopic[] keepExisting(Admin admin, NewTopic... declared) {
        var names = Arrays.stream(declared).map(NewTopic::name).toList();
        Map<String, Integer> existing;
        try {
            existing = existingCounts(admin, names);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return declared;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // Unreachable brokers are the admin's to report, with the declarations as they were.
            log.debug("Could not describe {}: {}", names, e.toString());
            return declared;
        }
        return Arrays.stream(declared)
                .map(topic -> keep(topic, existing.get(topic.name())))
                .toArray(NewTopic[]::new);
    }

    /** An admin client of {@code adminConfig} (Spring's {@code KafkaAdmin.getConfigurationProperties()}). */
    static Client client(Map<String, Object> adminConfig) {
        var config = new HashMap<>(adminConfig);
        config.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "topic-partitions");
        return new Client(Admin.create(config));
    }

    /** An admin client that, closed, waits at most {@link #CLOSE_TIMEOUT} for its pending calls. */
    record Client(Admin admin) implements AutoCloseable {
        @Override
        public void close() {
            admin.close(CLOSE_TIMEOUT);
        }
    }

    /** One topic: see {@link #keepExisting(Map, NewTopic...)}. */
    public static NewTopic keepExisting(Map<String, Object> adminConfig, NewTopic declared) {
        return keepExisting(adminConfig, new NewTopic[] {declared})[0];
    }

    /**
     * Waits until the broker describes every one of {@code names} with a leader for each partition.
     *
     * @return false when they were not all served within {@code timeout}
     */
    static boolean awaitLeaders(Admin admin, List<String> names, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                var described =
                        admin.describeTopics(names).allTopicNames().get(DESCRIBE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (described.values().stream().allMatch(TopicPartitions::led)) {
                    return true;
                }
            } catch (ExecutionException | TimeoutException e) {
                // Unknown for a moment after its creation: asked again until the deadline.
                log.debug("{} not served yet: {}", names, e.toString());
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static boolean led(TopicDescription description) {
        return !description.partitions().isEmpty()
                && description.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    }

    private static Map<String, Integer> existingCounts(Admin admin, List<String> names)
            throws InterruptedException, ExecutionException, TimeoutException {
        var listed = admin.listTopics().names().get(DESCRIBE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        var present = new ArrayList<>(names);
        present.retainAll(listed);
        if (present.isEmpty()) {
            return Map.of();
        }
        var described = admin.describeTopics(present).allTopicNames().get(DESCRIBE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        var counts = new HashMap<String, Integer>();
        described.forEach((name, description) -> counts.put(name, partitions(description)));
        return counts;
    }

    private static int partitions(TopicDescription description) {
        return description.partitions().size();
    }

    static NewTopic keep(NewTopic declared, Integer existing) {
        if (existing == null || declared.numPartitions() < 0 || existing == declared.numPartitions()) {
            return declared;
        }
        log.warn(
                "Topic {} exists with {} partitions, configured {}: partitions are set when a topic is created, "
                        + "so it keeps {} (to change it, see docs/scaling.md, \"Changing the partition count\")",
                declared.name(),
                existing,
                declared.numPartitions(),
                existing);
        var kept = declared.replicasAssignments() != null
                ? declared
                : new NewTopic(
                        declared.name(),
                        Optional.of(existing),
                        declared.replicationFactor() < 0
                                ? Optional.empty()
                                : Optional.of(declared.replicationFactor()));
        if (declared.configs() != null) {
            kept.configs(declared.configs());
        }
        return kept;
    }
}
