package dev.iotpipeline.notify.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.notify.NotifyApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The notify service alone on a real broker in this JVM and a real PostgreSQL: the history writer stores a
 * data unit once however often it is delivered, and dead-letters a record that is not a data unit while the
 * records behind it are still stored.
 */
@SpringBootTest(
        classes = NotifyApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.config.name=notify-service",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "notify.kafka.partitions=1",
            "iot.security.admin-tokens[0]=admin-secret",
            "iot.security.dashboard-tokens[0].token=dash-secret",
            "iot.security.dashboard-tokens[0].channels[0]=greenhouse"
        })
@EmbeddedKafka(partitions = 1)
@AutoConfigureMockMvc
class HistoryListenerTest {

    private static final EmbeddedPostgres POSTGRES = start();

    private static EmbeddedPostgres start() {
        try {
            return EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new IllegalStateException("PostgreSQL did not start", e);
        }
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> POSTGRES.getJdbcUrl("postgres", "postgres"));
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "postgres");
    }

    @AfterAll
    static void stop() throws IOException {
        POSTGRES.close();
    }

    @Autowired
    private EmbeddedKafkaBroker broker;

    @Autowired
    private MockMvc mvc;

    @Test
    void storesEachDataUnitOnceAndDeadLettersWhatIsNoDataUnit() throws Exception {
        var unit = dataUnit("dev-1", 21.5);
        try (var producer = new KafkaProducer<>(
                Map.<String, Object>of("bootstrap.servers", broker.getBrokersAsString()),
                new StringSerializer(),
                new ByteArraySerializer())) {
            send(producer, "dev-1", EventJson.write(unit));
            send(producer, "dev-poison", "[1, 2".getBytes(StandardCharsets.UTF_8));
            // Delivered twice, as after a crash between the write and the commit: still one row.
            send(producer, "dev-1", EventJson.write(unit));
            send(producer, "dev-2", EventJson.write(dataUnit("dev-2", 19.0)));
        }

        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> mvc.perform(get("/data-units")
                                .param("channel", "greenhouse")
                                .header("Authorization", "Bearer dash-secret"))
                        .andExpect(status().isOk())
                        .andExpect(jsonPath("$.items.length()").value(2))
                        .andExpect(jsonPath("$.items[0].id").value(unit.id().toString()))
                        .andExpect(
                                jsonPath("$.items[0].measurements.temperature").value(21.5)));

        // Once the stream pauses, each device's latest reading is written and the batches' offsets committed.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> mvc.perform(get("/data-units/latest")
                                .param("channel", "greenhouse")
                                .header("Authorization", "Bearer dash-secret"))
                        .andExpect(status().isOk())
                        .andExpect(jsonPath("$.length()").value(2)));
        try (var admin = Admin.create(Map.of("bootstrap.servers", broker.getBrokersAsString()))) {
            var dataUnits = new TopicPartition(PipelineTopic.DATA_UNITS.topicName(), 0);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(admin.listConsumerGroupOffsets("notify-store")
                                    .partitionsToOffsetAndMetadata()
                                    .get()
                                    .get(dataUnits))
                            .isNotNull()
                            .extracting(OffsetAndMetadata::offset)
                            .isEqualTo(4L));
        }

        var props = KafkaTestUtils.consumerProps(broker, "history-test", false);
        props.put("auto.offset.reset", "earliest");
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(PipelineTopic.EVENTS_DEAD_LETTER.topicName()));
            var seen = new ArrayList<ConsumerRecord<String, byte[]>>();
            var dead = Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(
                            () -> {
                                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
                                return seen.stream()
                                        .filter(r -> "dev-poison".equals(r.key()))
                                        .findFirst()
                                        .orElse(null);
                            },
                            r -> r != null);
            assertThat(new String(
                            dead.headers().lastHeader(DeadLetterHeaders.STAGE).value(), StandardCharsets.UTF_8))
                    .isEqualTo(DeadLetterHeaders.STAGE_STORE);
            assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("[1, 2");
        }
    }

    private static void send(KafkaProducer<String, byte[]> producer, String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(PipelineTopic.DATA_UNITS.topicName(), key, value))
                .get();
    }

    private static DataUnit dataUnit(String deviceId, double temperature) {
        var now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "greenhouse",
                "em300th",
                deviceId,
                now,
                now,
                now,
                Map.of("temperature", temperature),
                Map.of());
    }
}
