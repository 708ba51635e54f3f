package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.decoder.DecoderApplication;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.metrics.HopTimers;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;

/**
 * The decoder's warm-up on a real broker: its uplinks go through a listener like the real one into a topic of the
 * warm-up's own, and nothing reaches a pipeline topic, the service's meters or the broker's topic list.
 */
@SpringBootTest(
        classes = DecoderApplication.class,
        properties = {
            "spring.config.name=decoder-service",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "server.port=0",
            "decoder.kafka.partitions=1",
            "iot.warmup.enabled=false"
        })
@EmbeddedKafka(partitions = 1)
class DecoderWarmupTest {

    private static final int ROUNDS = 30;

    @Autowired
    private DecoderWarmup warmup;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private EmbeddedKafkaBroker broker;

    @Test
    void decodesThroughAListenerIntoATopicOfItsOwnAndLeavesNothingBehind() throws Exception {
        try (var admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
            for (int round = 0; round < ROUNDS; round++) {
                warmup.exercise(round);
            }
            var rehearsal = admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
                    .filter(topic -> topic.startsWith(RehearsalTopic.PREFIX + "decoder-"))
                    .toList();
            assertThat(rehearsal).as("its uplinks' topic and its data units'").hasSize(2);
            // The listener's writes may still be in flight after the last round: close waits for them.
            warmup.close();

            // A deletion the controller accepted reaches the broker's metadata, which listTopics reads, a moment later.
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS))
                            .as("both rehearsal topics deleted")
                            .noneMatch(topic -> topic.startsWith(RehearsalTopic.PREFIX)));
        }
        assertThat(readAll(PipelineTopic.DATA_UNITS.topicName())).isEmpty();
        assertThat(readAll(PipelineTopic.DEAD_LETTER.topicName())).isEmpty();
        assertThat(meters.find("decoder.data.units").counters()).isEmpty();
        assertThat(meters.find("decoder.decode").timers()).allMatch(timer -> timer.count() == 0);
        assertThat(meters.find(HopTimers.NAME).timers()).allMatch(timer -> timer.count() == 0);
    }

    @Test
    void writesOneDataUnitOrDeadLetterForEachUplinkItReadsBack() throws Exception {
        var byTopic = new HashMap<String, List<ConsumerRecord<String, byte[]>>>();
        try (var admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
            for (int round = 0; round < ROUNDS; round++) {
                warmup.exercise(round);
            }
            // Before close deletes them: every record of both rehearsal topics, once the listener's writes landed.
            assertThat(warmup.awaitListenerWrites(Duration.ofSeconds(10))).isTrue();
            for (var topic : admin.listTopics().names().get(10, TimeUnit.SECONDS)) {
                if (topic.startsWith(RehearsalTopic.PREFIX + "decoder-")) {
                    byTopic.put(topic, readAll(topic));
                }
            }
        } finally {
            warmup.close();
        }
        var outputs = byTopic.values().stream()
                .filter(records -> records.stream().anyMatch(DecoderWarmupTest::isOutput))
                .findFirst()
                .orElseThrow();
        var inputs = byTopic.values().stream()
                .filter(records -> records != outputs)
                .findFirst()
                .orElseThrow();
        var uplinkIds = inputs.stream()
                .map(record ->
                        EventJson.read(record.value(), EncodedUplink.class).id())
                .toList();
        assertThat(uplinkIds).hasSize(ROUNDS * 10).doesNotHaveDuplicates();
        assertThat(outputs).allMatch(DecoderWarmupTest::isOutput);
        var dataUnits = outputs.stream()
                .filter(record -> record.headers().lastHeader(UplinkDigest.HEADER) != null)
                .map(record -> PipelineTopic.DATA_UNITS.read(record.value()))
                .toList();
        // The EM300-TH payload decodes with em300th's codec; a type whose codec refuses it is a dead letter.
        assertThat(dataUnits).extracting(DataUnit::deviceType).contains("em300th");
        var decodedOrDeadLettered = new ArrayList<UUID>();
        dataUnits.forEach(unit -> decodedOrDeadLettered.add(unit.uplinkId()));
        outputs.stream()
                .filter(record -> record.headers().lastHeader(DeadLetterHeaders.CAUSE) != null)
                .forEach(record -> decodedOrDeadLettered.add(
                        EventJson.read(record.value(), EncodedUplink.class).id()));
        // Each round handles what its one poll returns, so on a busy machine the last rounds' uplinks may stay unread.
        assertThat(decodedOrDeadLettered)
                .hasSizeGreaterThanOrEqualTo(ROUNDS * 10 / 2)
                .doesNotHaveDuplicates()
                .isSubsetOf(uplinkIds);
    }

    private static boolean isOutput(ConsumerRecord<String, byte[]> record) {
        return record.headers().lastHeader(UplinkDigest.HEADER) != null
                || record.headers().lastHeader(DeadLetterHeaders.CAUSE) != null;
    }

    private List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        var props = KafkaTestUtils.consumerProps(broker, "warmup-test", false);
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions);
            var records = new ArrayList<ConsumerRecord<String, byte[]>>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }
}
