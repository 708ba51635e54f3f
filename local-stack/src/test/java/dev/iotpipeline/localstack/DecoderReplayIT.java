package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecoderReplayIT {

    @TempDir
    Path data;

    @Test
    void shouldReprocessAfterARestartWithTheSameDataUnitIds() throws Exception {
        try (var stack = EmbeddedStack.start(data)) {
            // given five decoded and stored uplinks
            var client = new PipelineClient(stack);
            for (int i = 0; i < 5; i++) {
                assertThat(client.postUplink(
                                        "replay",
                                        "em300th",
                                        "{\"deviceId\":\"rp-%d\",\"payloadHex\":\"01755C03673401046865\"}".formatted(i))
                                .statusCode())
                        .isEqualTo(202);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount("replay") == 5);
            assertThat(dataUnitIds(stack, "replay", 5)).hasSize(5);

            // when the decoder restarts with its offsets rewound, as after a crash before its commit
            stack.restartDecoder(() -> rewind(stack, "decoder"));

            // then it decodes all five again, with the same ids, and the history still holds five
            var ids = dataUnitIds(stack, "replay", 10);
            assertThat(ids).hasSize(10);
            assertThat(ids.stream().distinct()).hasSize(5);
            assertThat(client.storedCount("replay")).isEqualTo(5);
        }
    }

    private static void rewind(LocalStack stack, String group) {
        var topic = PipelineTopic.UPLINKS_ENCODED.topicName();
        try (var admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            // The group must be empty before its offsets can move; the stopped member may take a moment to leave.
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
                admin.describeTopics(List.of(topic))
                        .allTopicNames()
                        .get(10, TimeUnit.SECONDS)
                        .get(topic)
                        .partitions()
                        .forEach(p -> start.put(new TopicPartition(topic, p.partition()), new OffsetAndMetadata(0)));
                admin.alterConsumerGroupOffsets(group, start).all().get(10, TimeUnit.SECONDS);
                return true;
            });
        }
    }

    /** Every data-unit id on the topic for the channel, once at least {@code expected} are there. */
    private static List<String> dataUnitIds(LocalStack stack, String channel, int expected) {
        var ids = new ArrayList<String>();
        try (var consumer = new KafkaConsumer<>(
                Map.<String, Object>of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "it-replay-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(PipelineTopic.DATA_UNITS.topicName()));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    var unit = PipelineClient.json(record.value());
                    if (channel.equals(unit.get("channel").asString())) {
                        ids.add(unit.get("id").asString());
                    }
                }
                return ids.size() >= expected;
            });
        }
        return ids;
    }
}
