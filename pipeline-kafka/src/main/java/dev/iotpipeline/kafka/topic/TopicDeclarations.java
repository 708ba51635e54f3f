package dev.iotpipeline.kafka.topic;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * How the services declare topics, each topic in one way: its owner ({@link PipelineTopic#owner()}) declares it with
 * the retention the owner configures, for its KafkaAdmin's pass; a service that reads or writes a topic it does not
 * own creates it only when it is missing, without retention, so the services start in any order and only the owner
 * sets a topic's configuration. Partitions: the service's count, one for a compacted registry; an existing topic
 * keeps its count ({@link TopicPartitions}).
 */
public final class TopicDeclarations {

    private TopicDeclarations() {}

    /**
     * The topics {@code owner} owns, each with its retention when {@code retention} names one, and the topics it
     * also writes ({@code alsoWritten}: created when missing, their configuration left to their owner).
     */
    public static KafkaAdmin.NewTopics owned(
            KafkaAdmin admin,
            PipelineTopic.Owner owner,
            int partitions,
            short replicationFactor,
            Map<PipelineTopic<?>, Duration> retention,
            PipelineTopic<?>... alsoWritten) {
        return new KafkaAdmin.NewTopics(TopicPartitions.keepExisting(
                admin.getConfigurationProperties(),
                declarations(owner, partitions, replicationFactor, retention, alsoWritten)));
    }

    /** What {@link #owned} declares, before existing topics' partition counts are kept. */
    static NewTopic[] declarations(
            PipelineTopic.Owner owner,
            int partitions,
            short replicationFactor,
            Map<PipelineTopic<?>, Duration> retention,
            PipelineTopic<?>... alsoWritten) {
        var owned = PipelineTopic.all().stream()
                .filter(topic -> topic.owner() == owner)
                .map(topic -> retention.containsKey(topic)
                        ? topic.newTopic(partitions, replicationFactor, retention.get(topic))
                        : topic.newTopic(partitions, replicationFactor));
        var written = Arrays.stream(alsoWritten).map(topic -> topic.newTopic(partitions, replicationFactor));
        return Stream.concat(owned, written).toArray(NewTopic[]::new);
    }

    /**
     * Creates those of {@code topics} that do not exist yet, now, and waits until the broker serves each one's
     * partitions with a leader: for a reader or Kafka Streams that needs them before KafkaAdmin's own pass, or before
     * their owner has started. The wait matters because a KRaft broker applies a new topic to the metadata it serves
     * a moment after the controller answered the create, and Kafka Streams' global store refuses to start on a topic
     * that shows no partitions.
     *
     * @return false when the topics were not served within {@code timeout}
     */
    public static boolean createMissing(
            KafkaAdmin admin, Duration timeout, int partitions, short replicationFactor, PipelineTopic<?>... topics)
            throws InterruptedException {
        var declared = Arrays.stream(topics)
                .map(topic -> topic.newTopic(partitions, replicationFactor))
                .toArray(NewTopic[]::new);
        // One client for the look before the create and the wait after it; KafkaAdmin creates with its own.
        try (var client = TopicPartitions.client(admin.getConfigurationProperties())) {
            admin.createOrModifyTopics(TopicPartitions.keepExisting(client.admin(), declared));
            return TopicPartitions.awaitLeaders(
                    client.admin(),
                    Arrays.stream(topics).map(PipelineTopic::topicName).toList(),
                    timeout);
        }
    }
}
