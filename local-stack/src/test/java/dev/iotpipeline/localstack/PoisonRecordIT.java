package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * A record no consumer can ever process, in every partition of every topic, goes to its dead-letter topic
 * with its cause, and the uplinks sent after it are still stored: no partition is blocked.
 */
class PoisonRecordIT {

    private static final byte[] GARBAGE = {(byte) 0xff, 0x00, '{', 'n', 'o', 't', ' ', 'j', 's', 'o', 'n'};

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    /** What one poison record must produce: a dead letter in {@code topic} from {@code stage} with {@code cause}. */
    private record Expected(
            String key, byte[] value, String source, PipelineTopic<?> topic, String stage, String cause) {

        String describe() {
            return topic.topicName() + " " + stage + " " + cause + " " + key;
        }
    }

    @Test
    void shouldDeadLetterPoisonInEveryTopicWithItsCauseAndStoreTheUplinksSentAfterIt() throws Exception {
        int partitions = stack.settings().partitions();
        var expected = new ArrayList<Expected>();
        try (var producer = producer()) {
            // given in every partition: garbage in each topic, and a data unit whose device id the table refuses
            for (int p = 0; p < partitions; p++) {
                expected.add(send(
                        producer,
                        PipelineTopic.UPLINKS_ENCODED,
                        p,
                        GARBAGE,
                        PipelineTopic.DEAD_LETTER,
                        DeadLetterHeaders.STAGE_DECODE,
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT));
                var garbageUnit = send(
                        producer,
                        PipelineTopic.DATA_UNITS,
                        p,
                        GARBAGE,
                        PipelineTopic.EVENTS_DEAD_LETTER,
                        DeadLetterHeaders.STAGE_STORE,
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT);
                expected.add(garbageUnit);
                expected.add(new Expected(
                        garbageUnit.key(),
                        GARBAGE,
                        garbageUnit.source(),
                        PipelineTopic.EVENTS_DEAD_LETTER,
                        DeadLetterHeaders.STAGE_RULES,
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT));
                expected.add(send(
                        producer,
                        PipelineTopic.ALARMS,
                        p,
                        GARBAGE,
                        PipelineTopic.EVENTS_DEAD_LETTER,
                        DeadLetterHeaders.STAGE_STORE,
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT));
                expected.add(send(
                        producer,
                        PipelineTopic.ALARM_COMMANDS,
                        p,
                        GARBAGE,
                        PipelineTopic.EVENTS_DEAD_LETTER,
                        DeadLetterHeaders.STAGE_RULES,
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT));
                expected.add(send(
                        producer,
                        PipelineTopic.DATA_UNITS,
                        p,
                        EventJson.write(nulDeviceUnit(p)),
                        PipelineTopic.EVENTS_DEAD_LETTER,
                        DeadLetterHeaders.STAGE_STORE,
                        DeadLetterHeaders.CAUSE_REJECTED_BY_STORE));
            }
        }

        // when uplinks are sent after them, from enough devices to reach every partition
        var channel = "poison-" + run;
        postUplinks(channel);

        // then every uplink is stored, and every poison record is in its dead-letter topic, once, with its cause
        await().atMost(Duration.ofSeconds(90)).until(() -> client.storedCount(channel) == 30);
        var deadLetters = deadLettersOf(expected);
        for (var want : expected) {
            var matching =
                    deadLetters.stream().filter(dead -> matches(dead, want)).toList();
            assertThat(matching).as(want.describe()).hasSize(1);
            assertHeaders(matching.getFirst(), want);
        }
        assertThat(deadLetters).hasSize(expected.size());
    }

    @Test
    void shouldDeadLetterAGarbageRecordAtTheSizeLimitWithoutItsValueAndCarryOn() throws Exception {
        // given garbage on data-units just under Kafka's 1 MB, so its dead letter is over it even without the stack
        // trace
        var huge = new byte[1_048_200];
        Arrays.fill(huge, (byte) 'x');
        Expected store;
        try (var producer = producer()) {
            store = send(
                    producer,
                    PipelineTopic.DATA_UNITS,
                    0,
                    huge,
                    PipelineTopic.EVENTS_DEAD_LETTER,
                    DeadLetterHeaders.STAGE_STORE,
                    DeadLetterHeaders.CAUSE_MALFORMED_EVENT);
        }
        var rules = new Expected(
                store.key(),
                huge,
                store.source(),
                PipelineTopic.EVENTS_DEAD_LETTER,
                DeadLetterHeaders.STAGE_RULES,
                DeadLetterHeaders.CAUSE_MALFORMED_EVENT);

        // when uplinks follow it
        var channel = "huge-" + run;
        postUplinks(channel);

        // then both of its consumers dead-letter it once, without the value, and neither partition is held
        await().atMost(Duration.ofSeconds(90)).until(() -> client.storedCount(channel) == 30);
        var deadLetters = deadLettersOf(List.of(store, rules));
        assertThat(deadLetters).hasSize(2);
        for (var dead : deadLetters) {
            assertThat(dead.value()).isNull();
            assertThat(header(dead, DeadLetterHeaders.VALUE_DROPPED)).isEqualTo("1048200");
            assertThat(header(dead, DeadLetterHeaders.SOURCE)).isEqualTo(store.source());
            assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterHeaders.CAUSE_MALFORMED_EVENT);
        }
    }

    @Test
    void shouldReportTheConsumersReadyOnceTheyOwnTheirPartitions() {
        var decoder = client.get(stack.decoderUrl() + "/actuator/health/readiness");
        var notify = client.get(stack.notifyUrl() + "/actuator/health/readiness");
        var rules = client.get(stack.rulesUrl() + "/actuator/health/readiness");

        assertThat(decoder.statusCode()).isEqualTo(200);
        assertThat(decoder.body()).contains("\"kafkaConsumers\"");
        assertThat(notify.statusCode()).isEqualTo(200);
        assertThat(notify.body()).contains("\"kafkaConsumers\"");
        assertThat(rules.statusCode()).isEqualTo(200);
        assertThat(rules.body()).contains("\"kafkaStreams\"").contains("RUNNING");
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(
                Map.<String, Object>of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG,
                        "all"),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /** 30 uplinks to {@code channel}, from enough devices to reach every partition, each answered 202. */
    private void postUplinks(String channel) {
        for (int i = 0; i < 30; i++) {
            assertThat(client.postUplink(
                                    channel,
                                    "em300th",
                                    "{\"deviceId\":\"after-%d\",\"payloadHex\":\"0175640367C800046850\"}".formatted(i))
                            .statusCode())
                    .isEqualTo(202);
        }
    }

    private Expected send(
            KafkaProducer<String, byte[]> producer,
            PipelineTopic<?> topic,
            int partition,
            byte[] value,
            PipelineTopic<?> deadLetterTopic,
            String stage,
            String cause)
            throws Exception {
        var key = "poison-" + run + "-" + topic.topicName() + "-" + partition + "-" + cause;
        var written = producer.send(new ProducerRecord<>(topic.topicName(), partition, key, value))
                .get(10, TimeUnit.SECONDS);
        return new Expected(
                key,
                value,
                topic.topicName() + "-" + partition + "@" + written.offset(),
                deadLetterTopic,
                stage,
                cause);
    }

    /** PostgreSQL text columns cannot hold NUL, so this well-formed data unit can never be stored. */
    private DataUnit nulDeviceUnit(int partition) {
        var now = Instant.now();
        return new DataUnit(
                Ids.newId(),
                DataUnit.SCHEMA_VERSION,
                Ids.newId(),
                "poison-" + run,
                "em300th",
                "nul\u0000device-" + partition,
                now,
                now,
                now,
                Map.of("temperature", 21.5),
                Map.of());
    }

    /** Every record in both dead-letter topics with one of the expected keys, once all expected ones are there. */
    private List<ConsumerRecord<String, byte[]>> deadLettersOf(List<Expected> expected) {
        var keys = expected.stream().map(Expected::key).collect(java.util.stream.Collectors.toSet());
        var found = new ArrayList<ConsumerRecord<String, byte[]>>();
        try (var consumer = new KafkaConsumer<>(
                Map.<String, Object>of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "it-poison-" + run,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(
                    List.of(PipelineTopic.DEAD_LETTER.topicName(), PipelineTopic.EVENTS_DEAD_LETTER.topicName()));
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (keys.contains(record.key())) {
                        found.add(record);
                    }
                }
                return expected.stream().allMatch(want -> found.stream().anyMatch(dead -> matches(dead, want)));
            });
            // Anything extra (a duplicate, a wrong stage) would arrive with the rest; one more poll to see it.
            consumer.poll(Duration.ofSeconds(2)).forEach(record -> {
                if (keys.contains(record.key())) {
                    found.add(record);
                }
            });
        }
        return found;
    }

    private static boolean matches(ConsumerRecord<String, byte[]> dead, Expected want) {
        return dead.topic().equals(want.topic().topicName())
                && want.key().equals(dead.key())
                && want.stage().equals(header(dead, DeadLetterHeaders.STAGE));
    }

    private static void assertHeaders(ConsumerRecord<String, byte[]> dead, Expected want) {
        assertThat(dead.value()).as("the original bytes, unchanged").isEqualTo(want.value());
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).as(want.describe()).isEqualTo(want.cause());
        assertThat(header(dead, DeadLetterHeaders.SOURCE)).isEqualTo(want.source());
        assertThat(header(dead, DeadLetterHeaders.REASON)).isNotBlank();
        assertThat(Instant.parse(header(dead, DeadLetterHeaders.FAILED_AT))).isBeforeOrEqualTo(Instant.now());
        if (want.topic() == PipelineTopic.EVENTS_DEAD_LETTER) {
            var source = want.source();
            assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_TOPIC))
                    .isEqualTo(source.substring(0, source.lastIndexOf('-')));
            assertThat(ByteBuffer.wrap(dead.headers()
                                    .lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION)
                                    .value())
                            .getInt())
                    .isEqualTo(Integer.parseInt(source.substring(source.lastIndexOf('-') + 1, source.indexOf('@'))));
            assertThat(ByteBuffer.wrap(dead.headers()
                                    .lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET)
                                    .value())
                            .getLong())
                    .isEqualTo(Long.parseLong(source.substring(source.indexOf('@') + 1)));
            assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_FQCN)).isNotBlank();
            assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_MESSAGE)).isNotBlank();
            assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP))
                    .isEqualTo(want.stage().equals(DeadLetterHeaders.STAGE_STORE) ? "notify-store" : "rules");
        }
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
