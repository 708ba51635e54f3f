package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicPartitions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * A service configured with more partitions than an existing topic has leaves the topic as it is (growing it
 * would move devices between partitions and break Kafka Streams' co-partitioning); a new topic gets the
 * configured count; each topic keeps records as long as the service that owns it declares.
 */
class TopicPartitionsIT {

    private final LocalStack stack = EmbeddedStack.shared();

    @Test
    void shouldKeepTheCountOfAnExistingTopicAndCreateANewOneAsConfigured() throws Exception {
        Map<String, Object> config = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
        var spring = new KafkaAdmin(config);
        var existing = PipelineTopic.DATA_UNITS.topicName();
        int before = partitions(existing);
        var fresh = "it-partitions-" + UUID.randomUUID();

        var declared = TopicPartitions.keepExisting(
                spring.getConfigurationProperties(),
                PipelineTopic.DATA_UNITS.newTopic(before + 3, (short) 1),
                new NewTopic(fresh, before + 3, (short) 1));
        spring.createOrModifyTopics(declared);

        assertThat(declared).extracting(NewTopic::numPartitions).containsExactly(before, before + 3);
        assertThat(partitions(existing)).isEqualTo(before);
        assertThat(partitions(fresh)).isEqualTo(before + 3);
    }

    @Test
    void shouldGiveEachTopicTheRetentionItsOwningServiceDeclares() throws Exception {
        var expected = Map.of(
                PipelineTopic.UPLINKS_ENCODED,
                Duration.ofDays(7),
                PipelineTopic.DATA_UNITS,
                Duration.ofDays(7),
                PipelineTopic.DEAD_LETTER,
                Duration.ofDays(30),
                PipelineTopic.ALARMS,
                Duration.ofDays(30),
                PipelineTopic.EVENTS_DEAD_LETTER,
                Duration.ofDays(30));
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            var resources = expected.keySet().stream()
                    .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t.topicName()))
                    .toList();
            var configs = admin.describeConfigs(resources).all().get(10, TimeUnit.SECONDS);
            expected.forEach((topic, retention) -> assertThat(
                            configs.get(new ConfigResource(ConfigResource.Type.TOPIC, topic.topicName()))
                                    .get(TopicConfig.RETENTION_MS_CONFIG)
                                    .value())
                    .as(topic.topicName())
                    .isEqualTo(Long.toString(retention.toMillis())));
        }
    }

    private int partitions(String topic) throws Exception {
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .size();
        }
    }
}
