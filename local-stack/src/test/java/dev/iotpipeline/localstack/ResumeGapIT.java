package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code since} older than what Kafka still holds is answered with a {@code gap} message naming what was
 * lost, before the replay of what is retained: never by silently starting at the earliest retained record.
 */
class ResumeGapIT {

    private static final String TOPIC = PipelineTopic.DATA_UNITS.topicName();

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);
    private final String channel = "gap-" + UUID.randomUUID().toString().substring(0, 8);
    private Admin admin;
    private List<TopicPartition> partitions;
    // Two devices per partition, so every partition keeps records of this test after the deletion.
    private List<String> devices;

    @BeforeEach
    void connect() throws Exception {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()));
        int count = admin.describeTopics(List.of(TOPIC))
                .allTopicNames()
                .get()
                .get(TOPIC)
                .partitions()
                .size();
        partitions = IntStream.range(0, count)
                .mapToObj(p -> new TopicPartition(TOPIC, p))
                .toList();
        devices = new ArrayList<>();
        var perPartition = new int[count];
        for (int i = 0; devices.size() < 2 * count; i++) {
            var device = "dev-" + i;
            // the default partitioner's choice for a keyed record: ingest and decoder key by device id
            int partition = Utils.toPositive(Utils.murmur2(device.getBytes(StandardCharsets.UTF_8))) % count;
            if (perPartition[partition]++ < 2) {
                devices.add(device);
            }
        }
    }

    @AfterEach
    void close() {
        admin.close();
    }

    @Test
    void shouldNameThePartitionsRetentionDeletedThenReplayWhatIsLeftThenGoLive() throws Exception {
        var since = Instant.now();
        var deleted = post(12);
        var cut = endOffsets();
        var retained = post(12);
        deleteBefore(cut);

        try (var dashboard = client.dashboard()) {
            dashboard.send(subscribe("s1", since.toString()));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dashboard.ofType("replayed").size() == 1);
            var live = post(4);
            await().atMost(Duration.ofSeconds(30)).until(() -> ids(dashboard).size() == retained.size() + live.size());
            await().during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> ids(dashboard).size() == retained.size() + live.size());

            var gap = dashboard.ofType("gap");
            assertThat(gap).hasSize(1);
            var message = gap.getFirst();
            assertThat(message.get("id").asString()).isEqualTo("s1");
            assertThat(message.get("stream").asString()).isEqualTo("data-units");
            assertThat(message.get("partitions")
                            .valueStream()
                            .map(p -> p.get("partition").asInt()))
                    .containsExactlyInAnyOrderElementsOf(
                            partitions.stream().map(TopicPartition::partition).toList());
            for (var partition : message.get("partitions")) {
                var tp = new TopicPartition(TOPIC, partition.get("partition").asInt());
                assertThat(partition.get("requestedTime").asString()).isEqualTo(since.toString());
                assertThat(partition.get("firstRetainedOffset").asLong()).isEqualTo(cut.get(tp));
                assertThat(Instant.parse(partition.get("firstRetainedAt").asString()))
                        .isAfterOrEqualTo(since);
            }
            assertThat(Instant.parse(message.get("lostBefore").asString())).isAfter(since);
            assertThat(message.get("detail").asString()).contains("GET /data-units");

            // the gap comes first, then exactly what is retained, the marker, and live events
            var messages = dashboard.messages;
            var units = dashboard.ofType("data-unit");
            var marker = dashboard.ofType("replayed").getFirst();
            assertThat(marker.get("count").asLong()).isEqualTo(retained.size());
            assertThat(messages.indexOf(message)).isLessThan(messages.indexOf(units.getFirst()));
            assertThat(ids(dashboard).subList(0, retained.size())).containsExactlyInAnyOrderElementsOf(retained);
            assertThat(messages.indexOf(marker))
                    .isGreaterThan(messages.indexOf(units.get(retained.size() - 1)))
                    .isLessThan(messages.indexOf(units.get(retained.size())));
            assertThat(ids(dashboard))
                    .doesNotHaveDuplicates()
                    .doesNotContainAnyElementsOf(deleted)
                    .containsAll(live);
        }
    }

    @Test
    void shouldAnnounceAGapWhenEventsAfterTheIdOfTheLastOneSeenWereDeleted() throws Exception {
        var deleted = post(6);
        var cut = endOffsets();
        var retained = post(6);
        deleteBefore(cut);

        try (var dashboard = client.dashboard()) {
            // the client saw only the first of the deleted events
            dashboard.send(subscribe("s1", deleted.getFirst()));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dashboard.ofType("replayed").size() == 1);

            assertThat(dashboard.ofType("gap")).hasSize(1);
            assertThat(dashboard.messages.indexOf(dashboard.ofType("gap").getFirst()))
                    .isLessThan(dashboard.messages.indexOf(
                            dashboard.ofType("data-unit").getFirst()));
            assertThat(ids(dashboard)).containsExactlyInAnyOrderElementsOf(retained);
        }
    }

    @Test
    void shouldReplayWithoutAGapFromATimeKafkaStillHolds() throws Exception {
        post(6);
        var cut = endOffsets();
        post(6);
        var since = Instant.now();
        var missed = post(6);
        deleteBefore(cut);

        try (var dashboard = client.dashboard()) {
            dashboard.send(subscribe("s1", since.toString()));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dashboard.ofType("replayed").size() == 1);

            assertThat(dashboard.ofType("gap")).isEmpty();
            assertThat(dashboard.ofType("replayed").getFirst().get("count").asLong())
                    .isEqualTo(missed.size());
            assertThat(ids(dashboard)).containsExactlyInAnyOrderElementsOf(missed);
        }
    }

    /** Posts {@code uplinks} uplinks round the devices, waits until all are stored, returns their data-unit ids. */
    private List<String> post(int uplinks) {
        var ids = new ArrayList<String>();
        long before = client.storedCount(channel);
        for (int i = 0; i < uplinks; i++) {
            var response = client.postUplink(
                    channel,
                    "em300th",
                    "{\"deviceId\":\"%s\",\"payloadHex\":\"0175640367C800046850\"}"
                            .formatted(devices.get(i % devices.size())));
            assertThat(response.statusCode()).isEqualTo(202);
            var uplinkId = UUID.fromString(
                    PipelineClient.json(response.body()).get("id").asString());
            ids.add(Ids.derive(uplinkId, "data-unit").toString());
        }
        // stored means decoded, so every data unit is in Kafka before the test moves on
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == before + uplinks);
        return ids;
    }

    private Map<TopicPartition, Long> endOffsets() throws Exception {
        var query = new HashMap<TopicPartition, OffsetSpec>();
        partitions.forEach(tp -> query.put(tp, OffsetSpec.latest()));
        var ends = new HashMap<TopicPartition, Long>();
        admin.listOffsets(query).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /** What retention does to old segments, at exact offsets. */
    private void deleteBefore(Map<TopicPartition, Long> cut) throws Exception {
        var delete = new HashMap<TopicPartition, RecordsToDelete>();
        cut.forEach((tp, offset) -> delete.put(tp, RecordsToDelete.beforeOffset(offset)));
        admin.deleteRecords(delete).all().get();
    }

    private static List<String> ids(PipelineClient.Dashboard dashboard) {
        return dashboard.ofType("data-unit").stream()
                .map(m -> m.get("data").get("id").asString())
                .toList();
    }

    private String subscribe(String id, String since) {
        return "{\"type\":\"subscribe\",\"id\":\"%s\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"%s\"},\"since\":\"%s\"}"
                .formatted(id, channel, since);
    }
}
