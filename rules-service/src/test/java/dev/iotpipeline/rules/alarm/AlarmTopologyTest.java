package dev.iotpipeline.rules.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventSerde;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AlarmTopologyTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private final RuleSet rules = new RuleSet();
    private TopologyTestDriver driver;
    private TestInputTopic<String, DataUnit> dataUnits;
    private TestInputTopic<String, byte[]> rawDataUnits;
    private TestOutputTopic<String, AlarmEvent> alarms;

    @BeforeEach
    void startDriver() {
        var builder = new StreamsBuilder();
        AlarmTopology.build(builder, rules, Clock.fixed(NOW, ZoneOffset.UTC));
        var props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rules-test");
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        driver = new TopologyTestDriver(builder.build(), props);
        var topic = PipelineTopic.DATA_UNITS.topicName();
        dataUnits = driver.createInputTopic(topic, new StringSerializer(), new EventSerde<>(DataUnit.class).serializer());
        rawDataUnits = driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());
        alarms = driver.createOutputTopic(PipelineTopic.ALARMS.topicName(), Serdes.String().deserializer(),
                new EventSerde<>(AlarmEvent.class).deserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    @Test
    void shouldRaiseOnceAndClearWhenTheConditionStopsHolding() {
        rules.apply("r1", rule("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null));

        var hot = unit("dev-1", 31.0);
        dataUnits.pipeInput("dev-1", hot);
        dataUnits.pipeInput("dev-1", unit("dev-1", 32.0));
        dataUnits.pipeInput("dev-1", unit("dev-1", 25.0));

        var events = alarms.readValuesToList();
        assertThat(events).extracting(AlarmEvent::state).containsExactly(AlarmState.ACTIVE, AlarmState.CLEARED);
        var raised = events.get(0);
        assertThat(raised.ruleId()).isEqualTo("r1");
        assertThat(raised.dataUnitId()).isEqualTo(hot.id());
        assertThat(raised.receivedAt()).isEqualTo(hot.receivedAt());
        assertThat(raised.values()).containsEntry("temperature", 31.0);
        assertThat(raised.severity()).isEqualTo(Severity.MAJOR);
        assertThat(events.get(1).alarmId()).isEqualTo(raised.alarmId());
    }

    @Test
    void shouldUseTheClearConditionForHysteresis() {
        rules.apply("r1", rule("r1", RuleFilter.ANY, "temperature > 30", "temperature < 28"));

        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0));
        dataUnits.pipeInput("dev-1", unit("dev-1", 29.0));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.ACTIVE);

        dataUnits.pipeInput("dev-1", unit("dev-1", 27.0));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.CLEARED);
    }

    @Test
    void shouldKeepAlarmStatePerDeviceAndIgnoreUnmatchedChannels() {
        rules.apply("r1", rule("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null));

        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0));
        dataUnits.pipeInput("dev-2", unit("dev-2", 31.0));
        dataUnits.pipeInput("dev-3", new DataUnit(Ids.newId(), 1, Ids.newId(), "greenhouse", "em300th", "dev-3", NOW,
                NOW, NOW, Map.of("temperature", 40.0), Map.of()));

        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::deviceId).containsExactly("dev-1", "dev-2");
    }

    @Test
    void shouldSkipAPoisonPillAndKeepEvaluating() {
        rules.apply("r1", rule("r1", RuleFilter.ANY, "temperature > 30", null));

        rawDataUnits.pipeInput("dev-1", "{not json".getBytes());
        dataUnits.pipeInput("dev-1", unit("dev-1", 35.0));

        assertThat(alarms.readValuesToList()).hasSize(1);
    }

    @Test
    void shouldNotMatchWhenAMeasurementIsMissing() {
        rules.apply("r1", rule("r1", RuleFilter.ANY, "humidity > 30", null));

        dataUnits.pipeInput("dev-1", unit("dev-1", 35.0));

        assertThat(alarms.isEmpty()).isTrue();
    }

    private static Rule rule(String id, RuleFilter filter, String condition, String clear) {
        return new Rule(id, 1, "hot", filter, condition, clear, null, true, NOW);
    }

    private static DataUnit unit(String deviceId, double temperature) {
        return new DataUnit(Ids.newId(), 1, Ids.newId(), "irrigation", "em300th", deviceId, NOW, NOW, NOW,
                Map.of("temperature", temperature), Map.of());
    }
}
