package dev.iotpipeline.rules.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.RulesApplication;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The rules service alone on a real broker in this JVM: a rule created over REST raises an alarm for a data
 * unit that crosses it, a record that is not a data unit is dead-lettered without stopping the stream, and an
 * acknowledgement on alarm-commands comes back as the acknowledged alarm, from rules, the one producer.
 */
@SpringBootTest(
        classes = RulesApplication.class,
        properties = {
            "spring.config.name=rules-service",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "server.port=0",
            "rules.kafka.partitions=1",
            "iot.security.admin-tokens[0]=admin-secret"
        })
@EmbeddedKafka(partitions = 1)
@AutoConfigureMockMvc
class AlarmStreamTest {

    @TempDir
    static Path stateDir;

    @DynamicPropertySource
    static void stateDir(DynamicPropertyRegistry registry) {
        registry.add("spring.kafka.streams.state-dir", () -> stateDir.toString());
    }

    @Autowired
    private EmbeddedKafkaBroker broker;

    @Autowired
    private MockMvc mvc;

    private KafkaProducer<String, byte[]> producer;
    private KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();

    @BeforeEach
    void clients() {
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.getBrokersAsString()),
                new StringSerializer(),
                new ByteArraySerializer());
        var props = KafkaTestUtils.consumerProps(broker, "stream-test-" + Ids.newId(), false);
        props.put("auto.offset.reset", "earliest");
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(PipelineTopic.ALARMS.topicName(), PipelineTopic.EVENTS_DEAD_LETTER.topicName()));
    }

    @AfterEach
    void close() {
        producer.close();
        consumer.close();
    }

    @Test
    void raisesDeadLettersAndAcknowledgesThroughTheTopology() throws Exception {
        mvc.perform(post("/rules")
                        .header("Authorization", "Bearer admin-secret")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\":\"hot\",\"filter\":{\"channel\":\"greenhouse\"},"
                                + "\"condition\":\"temperature > 30\",\"severity\":\"CRITICAL\"}"))
                .andExpect(status().isCreated());

        send(PipelineTopic.DATA_UNITS.topicName(), "dev-poison", "{not a data unit".getBytes(StandardCharsets.UTF_8));
        send(PipelineTopic.DATA_UNITS.topicName(), "dev-cool", EventJson.write(dataUnit("dev-cool", 20.0)));
        var hot = dataUnit("dev-hot", 41.5);
        send(PipelineTopic.DATA_UNITS.topicName(), "dev-hot", EventJson.write(hot));

        var poison = await(PipelineTopic.EVENTS_DEAD_LETTER.topicName(), "dev-poison", r -> true);
        assertThat(header(poison, DeadLetterHeaders.STAGE)).isEqualTo(DeadLetterHeaders.STAGE_RULES);
        var raised = PipelineTopic.ALARMS.read(
                await(PipelineTopic.ALARMS.topicName(), "dev-hot", r -> true).value());
        assertThat(raised.state()).isEqualTo(AlarmState.ACTIVE);
        assertThat(raised.acknowledged()).isFalse();
        assertThat(raised.dataUnitId()).isEqualTo(hot.id());

        var ack = new AlarmCommand(
                Ids.newId(),
                AlarmCommand.SCHEMA_VERSION,
                raised.alarmId(),
                raised.ruleId(),
                "dev-hot",
                AlarmCommand.Action.ACKNOWLEDGE,
                "operator",
                Instant.now());
        send(PipelineTopic.ALARM_COMMANDS.topicName(), "dev-hot", EventJson.write(ack));

        AlarmEvent acknowledged = PipelineTopic.ALARMS.read(await(
                        PipelineTopic.ALARMS.topicName(),
                        "dev-hot",
                        r -> PipelineTopic.ALARMS.read(r.value()).acknowledged())
                .value());
        assertThat(acknowledged.alarmId()).isEqualTo(raised.alarmId());
        assertThat(acknowledged.state()).isEqualTo(AlarmState.ACTIVE);
        assertThat(seen)
                .filteredOn(r -> r.topic().equals(PipelineTopic.ALARMS.topicName()))
                .extracting(ConsumerRecord::key)
                .doesNotContain("dev-cool");
    }

    private ConsumerRecord<String, byte[]> await(
            String topic, String key, Predicate<ConsumerRecord<String, byte[]>> matching) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
                            return seen.stream()
                                    .filter(r -> r.topic().equals(topic) && key.equals(r.key()))
                                    .filter(matching)
                                    .findFirst()
                                    .orElse(null);
                        },
                        r -> r != null);
    }

    private void send(String topic, String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(topic, key, value)).get();
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static DataUnit dataUnit(String deviceId, double temperature) {
        var now = Instant.now();
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
