package dev.iotpipeline.rules.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.DeadLetterRecoverer;
import dev.iotpipeline.kafka.deadletter.StreamsDeadLetters;
import dev.iotpipeline.kafka.topic.EventSerde;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.mock.MockProducerFactory;
import org.springframework.kafka.support.KafkaHeaders;

/** The rules topology with the production dead-letter handlers: poison records leave, evaluation goes on. */
class AlarmTopologyDeadLetterTest {

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private final RuleSet rules = new RuleSet();
    private final ArmedClock clock = new ArmedClock();
    private final MockProducer<byte[], byte[]> deadLetters = new KeptOpen();
    private TopologyTestDriver driver;
    private TestInputTopic<String, byte[]> rawDataUnits;
    private TestInputTopic<String, byte[]> rawCommands;
    private TestInputTopic<String, DataUnit> dataUnits;
    private TestOutputTopic<String, AlarmEvent> alarms;

    @BeforeEach
    void startDriver() {
        var builder = new StreamsBuilder();
        AlarmTopology.build(builder, rules, clock, RuleMetrics.none(), Duration.ofSeconds(1));
        var props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rules-test");
        var recoverer = new DeadLetterRecoverer(
                new KafkaTemplate<>(new MockProducerFactory<>(() -> deadLetters)),
                PipelineTopic.EVENTS_DEAD_LETTER,
                DeadLetterHeaders.STAGE_RULES,
                "rules",
                Clock.fixed(T0, ZoneOffset.UTC),
                new SimpleMeterRegistry());
        StreamsDeadLetters.configure(props, recoverer);
        driver = new TopologyTestDriver(builder.build(), props, T0);
        rawDataUnits = driver.createInputTopic(
                PipelineTopic.DATA_UNITS.topicName(), new StringSerializer(), new ByteArraySerializer());
        rawCommands = driver.createInputTopic(
                PipelineTopic.ALARM_COMMANDS.topicName(), new StringSerializer(), new ByteArraySerializer());
        dataUnits = driver.createInputTopic(
                PipelineTopic.DATA_UNITS.topicName(),
                new StringSerializer(),
                new EventSerde<>(DataUnit.class).serializer());
        alarms = driver.createOutputTopic(
                PipelineTopic.ALARMS.topicName(),
                Serdes.String().deserializer(),
                new EventSerde<>(AlarmEvent.class).deserializer());
        rules.apply(
                "r1",
                new Rule(
                        "r1",
                        1,
                        "hot",
                        RuleFilter.ANY,
                        Rule.RuleType.THRESHOLD,
                        "temperature > 30",
                        null,
                        null,
                        null,
                        null,
                        true,
                        T0));
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    @Test
    void shouldDeadLetterADataUnitThatIsNotJsonWithItsBytesAndCauseAndKeepEvaluating() {
        var garbage = "{not json".getBytes(StandardCharsets.UTF_8);

        rawDataUnits.pipeInput("dev-1", garbage);
        dataUnits.pipeInput("dev-1", unit("dev-1", 35.0));

        assertThat(alarms.readValuesToList()).hasSize(1);
        assertThat(deadLetters.history()).singleElement().satisfies(dead -> {
            assertThat(dead.topic()).isEqualTo(PipelineTopic.EVENTS_DEAD_LETTER.topicName());
            assertThat(dead.partition()).as("the producer chooses by key").isNull();
            assertThat(new String(dead.key(), StandardCharsets.UTF_8)).isEqualTo("dev-1");
            assertThat(dead.value()).isEqualTo(garbage);
            assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterHeaders.CAUSE_MALFORMED_EVENT);
            assertThat(header(dead, DeadLetterHeaders.STAGE)).isEqualTo(DeadLetterHeaders.STAGE_RULES);
            assertThat(header(dead, DeadLetterHeaders.SOURCE)).isEqualTo("data-units-0@0");
            assertThat(header(dead, DeadLetterHeaders.FAILED_AT)).isEqualTo(T0.toString());
            assertThat(header(dead, DeadLetterHeaders.REASON)).startsWith("not a DataUnit");
            assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_TOPIC)).isEqualTo("data-units");
            assertThat(header(dead, KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP)).isEqualTo("rules");
            assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_FQCN)).startsWith("tools.jackson");
        });
    }

    @Test
    void shouldDeadLetterEventsMissingWhatEvaluationNeedsInsteadOfDroppingThem() {
        rawDataUnits.pipeInput("dev-1", "{\"deviceId\":\"dev-1\"}".getBytes(StandardCharsets.UTF_8));
        rawCommands.pipeInput("dev-1", "{\"action\":\"ACKNOWLEDGE\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(deadLetters.history())
                .extracting(dead -> header(dead, DeadLetterHeaders.CAUSE))
                .containsExactly(DeadLetterHeaders.CAUSE_MALFORMED_EVENT, DeadLetterHeaders.CAUSE_MALFORMED_EVENT);
        assertThat(deadLetters.history())
                .extracting(dead -> header(dead, KafkaHeaders.DLT_ORIGINAL_TOPIC))
                .containsExactly("data-units", "alarm-commands");
        assertThat(deadLetters.history())
                .extracting(dead -> header(dead, DeadLetterHeaders.REASON))
                .containsExactly("DataUnit without id, deviceId and receivedAt", "AlarmCommand without alarmId");
    }

    @Test
    void shouldDeadLetterARecordEvaluationThrowsOnAsAProcessingErrorAndKeepEvaluating() {
        var poisoned = unit("dev-1", 35.0);
        clock.failNext = true;

        dataUnits.pipeInput("dev-1", poisoned);
        dataUnits.pipeInput("dev-2", unit("dev-2", 35.0));

        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::deviceId).containsExactly("dev-2");
        assertThat(deadLetters.history()).singleElement().satisfies(dead -> {
            assertThat(dead.value())
                    .isEqualTo(new EventSerde<>(DataUnit.class).serializer().serialize("", poisoned));
            assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterHeaders.CAUSE_PROCESSING_ERROR);
            assertThat(header(dead, DeadLetterHeaders.REASON)).isEqualTo("clock broke");
            assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_FQCN)).isEqualTo(IllegalStateException.class.getName());
        });
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static DataUnit unit(String deviceId, double temperature) {
        return new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "irrigation",
                "em300th",
                deviceId,
                T0,
                T0,
                T0,
                Map.of("temperature", temperature),
                Map.of());
    }

    /** The template closes its producer after each send; the test reads them all at the end. */
    private static final class KeptOpen extends MockProducer<byte[], byte[]> {

        KeptOpen() {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public void close() {}

        @Override
        public void close(Duration timeout) {}
    }

    /** A fixed clock that throws once when armed, the way a bug in evaluation would. */
    private static final class ArmedClock extends Clock {

        volatile boolean failNext;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            if (failNext) {
                failNext = false;
                throw new IllegalStateException("clock broke");
            }
            return T0;
        }
    }
}
