package dev.iotpipeline.rules.alarm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.kafka.topic.EventSerde;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
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

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private final RuleSet rules = new RuleSet();
    private final RuleMetrics metrics = RuleMetrics.none();
    private TopologyTestDriver driver;
    private TestInputTopic<String, DataUnit> dataUnits;
    private TestInputTopic<String, byte[]> rawDataUnits;
    private TestInputTopic<String, AlarmCommand> commands;
    private TestOutputTopic<String, AlarmEvent> alarms;
    private TestInputTopic<String, byte[]> ruleTopic;

    @BeforeEach
    void startDriver() {
        var builder = new StreamsBuilder();
        AlarmTopology.build(builder, rules, Clock.fixed(T0, ZoneOffset.UTC), metrics, Duration.ofSeconds(1));
        var props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rules-test");
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        driver = new TopologyTestDriver(builder.build(), props, T0);
        var topic = PipelineTopic.DATA_UNITS.topicName();
        dataUnits =
                driver.createInputTopic(topic, new StringSerializer(), new EventSerde<>(DataUnit.class).serializer());
        rawDataUnits = driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());
        commands = driver.createInputTopic(
                PipelineTopic.ALARM_COMMANDS.topicName(),
                new StringSerializer(),
                new EventSerde<>(AlarmCommand.class).serializer());
        ruleTopic = driver.createInputTopic(
                PipelineTopic.RULES.topicName(), new StringSerializer(), new ByteArraySerializer());
        alarms = driver.createOutputTopic(
                PipelineTopic.ALARMS.topicName(),
                Serdes.String().deserializer(),
                new EventSerde<>(AlarmEvent.class).deserializer());
    }

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    @Test
    void shouldRaiseOnceAndClearWhenTheConditionStopsHolding() {
        rules.apply("r1", threshold("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null, null));

        var hot = unit("dev-1", 31.0, 0);
        dataUnits.pipeInput("dev-1", hot);
        dataUnits.pipeInput("dev-1", unit("dev-1", 32.0, 1));
        dataUnits.pipeInput("dev-1", unit("dev-1", 25.0, 2));

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
    void shouldCarryTheTraceOfTheDataUnitThatRaisedOrClearedTheAlarmAndNoOtherHeader() {
        rules.apply("r1", threshold("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null, null));
        var raising = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        var clearing = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

        dataUnits.pipeInput(traced("dev-1", unit("dev-1", 31.0, 0), raising));
        dataUnits.pipeInput(traced("dev-1", unit("dev-1", 25.0, 1), clearing));

        var out = alarms.readRecordsToList();
        assertThat(out).extracting(r -> r.value().state()).containsExactly(AlarmState.ACTIVE, AlarmState.CLEARED);
        assertThat(out)
                .extracting(r -> new String(
                        r.headers().lastHeader("traceparent").value(), java.nio.charset.StandardCharsets.US_ASCII))
                .containsExactly(raising, clearing);
        assertThat(out)
                .allSatisfy(r -> assertThat(r.headers().lastHeader("other")).isNull());
    }

    @Test
    void shouldNameTheUplinksOwnTraceOnAnAlarmRaisedByADataUnitWithoutOne() {
        rules.apply("r1", threshold("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null, null));
        var unit = unit("dev-1", 31.0, 0);

        dataUnits.pipeInput(new org.apache.kafka.streams.test.TestRecord<>("dev-1", unit, T0));

        var raised = alarms.readRecord();
        assertThat(dev.iotpipeline.kafka.tracing.RecordTracing.traceId(raised.headers()))
                .isEqualTo(dev.iotpipeline.kafka.tracing.RecordTracing.traceIdOf(unit.uplinkId()));
        assertThat(dev.iotpipeline.kafka.tracing.RecordTracing.unsampled(raised.headers()))
                .isTrue();
    }

    private static org.apache.kafka.streams.test.TestRecord<String, DataUnit> traced(
            String key, DataUnit unit, String traceparent) {
        var headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        headers.add("traceparent", traceparent.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        headers.add("other", new byte[] {1});
        return new org.apache.kafka.streams.test.TestRecord<>(key, unit, headers, T0);
    }

    @Test
    void shouldUseTheClearConditionForHysteresis() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 30", "temperature < 28", null));

        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0));
        dataUnits.pipeInput("dev-1", unit("dev-1", 29.0, 1));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.ACTIVE);

        dataUnits.pipeInput("dev-1", unit("dev-1", 27.0, 2));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.CLEARED);
    }

    @Test
    void shouldRaiseADurationRuleOnlyAfterTheConditionHeldLongEnoughAndResetWhenBroken() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 30", null, "PT5M"));

        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0));
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 240));
        dataUnits.pipeInput("dev-1", unit("dev-1", 29.0, 280));
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 300));
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 500));
        assertThat(alarms.isEmpty()).as("the streak was broken at 280 s").isTrue();

        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 600));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.ACTIVE);
    }

    @Test
    void shouldRaiseAnInactivityAlarmOnTheClockAndClearItWhenTheDeviceReports() {
        rules.apply("quiet", inactivity("quiet", "PT30S"));
        dataUnits.pipeInput("dev-1", unit("dev-1", 20.0, 0));

        driver.advanceWallClockTime(Duration.ofSeconds(20));
        assertThat(alarms.isEmpty()).isTrue();
        driver.advanceWallClockTime(Duration.ofSeconds(15));
        var raised = alarms.readValuesToList();
        assertThat(raised).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(AlarmState.ACTIVE);
            assertThat(a.deviceId()).isEqualTo("dev-1");
        });
        driver.advanceWallClockTime(Duration.ofSeconds(60));
        assertThat(alarms.isEmpty()).as("not raised again while active").isTrue();

        dataUnits.pipeInput("dev-1", unit("dev-1", 20.0, 100));
        assertThat(alarms.readValuesToList()).singleElement().satisfies(a -> {
            assertThat(a.state()).isEqualTo(AlarmState.CLEARED);
            assertThat(a.alarmId()).isEqualTo(raised.getFirst().alarmId());
        });
    }

    @Test
    void shouldScanTheAlarmStateOnlyWhenTheRulesChangedOrAnInactivityDeadlineCame() {
        rules.apply("hot", threshold("hot", RuleFilter.ANY, "temperature > 30", null, null));
        for (int device = 0; device < 3; device++) {
            dataUnits.pipeInput("dev-" + device, unit("dev-" + device, 31.0, 0));
        }
        tick(1);
        assertThat(metrics.sweeps()).as("the first tick sweeps").isEqualTo(1);
        assertThat(metrics.stateEntries()).isEqualTo(3);

        // at rest, with no rule change and no inactivity rule, the clock finds nothing to do
        tick(10);
        assertThat(metrics.sweeps()).isEqualTo(1);

        // a new rule is a change: swept at the next tick
        rules.apply("quiet", inactivity("quiet", "PT30S"));
        tick(1);
        assertThat(metrics.sweeps()).isEqualTo(2);

        // a device reports at T0 + 12 s: its silence is due at T0 + 42 s, and not scanned for before
        dataUnits.pipeInput("dev-0", unit("dev-0", 31.0, 12));
        alarms.readValuesToList();
        tick(29);
        assertThat(metrics.sweeps()).isEqualTo(2);
        assertThat(alarms.isEmpty()).isTrue();
        tick(1);
        assertThat(metrics.sweeps()).isEqualTo(3);
        assertThat(alarms.readValuesToList())
                .extracting(AlarmEvent::ruleId, AlarmEvent::state)
                .containsExactly(tuple("quiet", AlarmState.ACTIVE));
        assertThat(metrics.stateEntries()).isEqualTo(4);
    }

    @Test
    void shouldTakeRulesFromTheRulesTopicAsTheTopologysSecondInputAndSkipARecordThatIsNoRule() {
        ruleTopic.pipeInput("broken", "not a rule".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ruleTopic.pipeInput(
                "r1",
                EventJson.write(
                        threshold("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null, null)));

        assertThat(driver.<String, Rule>getKeyValueStore(AlarmTopology.RULES_STORE)
                        .get("r1"))
                .extracting(Rule::condition)
                .isEqualTo("temperature > 30");
        assertThat(rules.find("broken")).isEmpty();
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0));
        assertThat(alarms.readValuesToList()).singleElement().satisfies(alarm -> {
            assertThat(alarm.ruleId()).isEqualTo("r1");
            assertThat(alarm.state()).isEqualTo(AlarmState.ACTIVE);
        });

        // A tombstone deletes the rule; its alarm is cleared by the next sweep.
        ruleTopic.pipeInput("r1", (byte[]) null);
        assertThat(rules.find("r1")).isEmpty();
        assertThat(driver.<String, Rule>getKeyValueStore(AlarmTopology.RULES_STORE)
                        .get("r1"))
                .isNull();
        driver.advanceWallClockTime(Duration.ofSeconds(2));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.CLEARED);
    }

    @Test
    void shouldRaiseTheSameInactivityAlarmAgainWhenReplayedAfterACrashWhateverTheSweepsTiming() {
        rules.apply("quiet", inactivity("quiet", "PT30S"));
        var report = unit("dev-1", 20.0, 0);
        dataUnits.pipeInput("dev-1", report);
        driver.advanceWallClockTime(Duration.ofSeconds(35));
        var first = alarms.readValuesToList();
        assertThat(first).singleElement().extracting(AlarmEvent::state).isEqualTo(AlarmState.ACTIVE);

        // A crash before the alarm and its state were committed: a new instance, empty state, the same input,
        // its sweep running at another moment.
        driver.close();
        startDriver();
        dataUnits.pipeInput("dev-1", report);
        driver.advanceWallClockTime(Duration.ofSeconds(52));
        var replayed = alarms.readValuesToList();
        assertThat(replayed).singleElement().satisfies(a -> {
            assertThat(a.alarmId()).isEqualTo(first.getFirst().alarmId());
            assertThat(a.id()).isEqualTo(first.getFirst().id());
        });
        assertThat(Ids.timeOf(replayed.getFirst().alarmId()))
                .as("the alarm's id sorts at the moment the silence became an alarm")
                .isEqualTo(report.receivedAt().plusSeconds(30));

        // Another silence is another alarm.
        dataUnits.pipeInput("dev-1", unit("dev-1", 20.0, 200));
        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::state).containsExactly(AlarmState.CLEARED);
        driver.advanceWallClockTime(Duration.ofSeconds(300));
        assertThat(alarms.readValuesToList())
                .singleElement()
                .extracting(AlarmEvent::alarmId)
                .isNotEqualTo(first.getFirst().alarmId());
    }

    @Test
    void shouldRaiseAndClearAThresholdAlarmWithTheSameIdsWhenReplayedAfterACrash() {
        rules.apply("hot", threshold("hot", RuleFilter.ANY, "temperature > 30", null, null));
        var input = List.of(unit("dev-1", 31.0, 0), unit("dev-1", 32.0, 1), unit("dev-1", 20.0, 2));
        input.forEach(u -> dataUnits.pipeInput("dev-1", u));
        var first = alarms.readValuesToList();
        assertThat(first).extracting(AlarmEvent::state).containsExactly(AlarmState.ACTIVE, AlarmState.CLEARED);

        // A crash before the alarms and the device's state were committed: a new instance reads the same data
        // units again from an empty state, later on the wall clock.
        driver.close();
        startDriver();
        driver.advanceWallClockTime(Duration.ofMinutes(5));
        input.forEach(u -> dataUnits.pipeInput("dev-1", u));
        var replayed = alarms.readValuesToList();
        assertThat(replayed)
                .extracting(AlarmEvent::alarmId, AlarmEvent::id, AlarmEvent::state)
                .containsExactlyElementsOf(first.stream()
                        .map(a -> tuple(a.alarmId(), a.id(), a.state()))
                        .toList());
    }

    @Test
    void shouldApplyRuleChangesMidStreamAndClearAlarmsOfDisabledOrDeletedRules() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 30", null, null));
        rules.apply("r2", threshold("r2", RuleFilter.ANY, "humidity > 80", null, null));
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0, 90.0));
        assertThat(alarms.readValuesToList()).hasSize(2);

        // when r1 is raised to 35 (no longer matching at 33 °C, but still active until its clear holds)
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 35", null, null));
        dataUnits.pipeInput("dev-1", unit("dev-1", 33.0, 1, 90.0));
        assertThat(alarms.readValuesToList())
                .extracting(AlarmEvent::ruleId, AlarmEvent::state)
                .containsExactly(tuple("r1", AlarmState.CLEARED));

        // when r2 is deleted, its active alarm is cleared by the next sweep
        rules.apply("r2", null);
        driver.advanceWallClockTime(Duration.ofSeconds(2));
        assertThat(alarms.readValuesToList())
                .extracting(AlarmEvent::ruleId, AlarmEvent::state)
                .containsExactly(tuple("r2", AlarmState.CLEARED));

        // and a disabled rule stops raising
        rules.apply(
                "r1",
                new Rule("r1", 1, "hot", RuleFilter.ANY, null, "temperature > 30", null, null, null, null, false, T0));
        dataUnits.pipeInput("dev-1", unit("dev-1", 40.0, 2, 90.0));
        assertThat(alarms.isEmpty()).isTrue();
    }

    @Test
    void shouldKeepAlarmStatePerDeviceAndIgnoreUnmatchedChannels() {
        rules.apply("r1", threshold("r1", new RuleFilter("irrigation", null, null), "temperature > 30", null, null));

        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0));
        dataUnits.pipeInput("dev-2", unit("dev-2", 31.0, 0));
        dataUnits.pipeInput(
                "dev-3",
                new DataUnit(
                        Ids.newId(),
                        1,
                        Ids.newId(),
                        "greenhouse",
                        "em300th",
                        "dev-3",
                        T0,
                        T0,
                        T0,
                        Map.of("temperature", 40.0),
                        Map.of()));

        assertThat(alarms.readValuesToList()).extracting(AlarmEvent::deviceId).containsExactly("dev-1", "dev-2");
    }

    @Test
    void shouldMarkTheActiveAlarmAcknowledgedAndCarryItIntoTheClear() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 30", null, null));
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0));
        var raised = alarms.readValue();

        commands.pipeInput(
                "dev-1",
                new AlarmCommand(
                        Ids.newId(),
                        1,
                        raised.alarmId(),
                        "r1",
                        "dev-1",
                        AlarmCommand.Action.ACKNOWLEDGE,
                        "operator",
                        T0.plusSeconds(5)));
        var acknowledged = alarms.readValue();
        dataUnits.pipeInput("dev-1", unit("dev-1", 20.0, 10));
        var cleared = alarms.readValue();

        assertThat(acknowledged.acknowledged()).isTrue();
        assertThat(acknowledged.state()).isEqualTo(AlarmState.ACTIVE);
        assertThat(acknowledged.acknowledgedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(cleared.acknowledged()).isTrue();
        assertThat(cleared.state()).isEqualTo(AlarmState.CLEARED);
    }

    @Test
    void shouldAcknowledgeAnAlarmAlreadyClearedFromTheCopyTheCommandCarries() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 30", null, null));
        dataUnits.pipeInput("dev-1", unit("dev-1", 31.0, 0));
        var raised = alarms.readValue();
        dataUnits.pipeInput("dev-1", unit("dev-1", 20.0, 10));
        var cleared = alarms.readValue();

        commands.pipeInput(
                "dev-1",
                new AlarmCommand(
                        Ids.newId(),
                        1,
                        raised.alarmId(),
                        "r1",
                        "dev-1",
                        AlarmCommand.Action.ACKNOWLEDGE,
                        "operator",
                        T0.plusSeconds(20),
                        cleared));
        // without the copy (an older notify) and for an alarm already acknowledged: nothing
        commands.pipeInput(
                "dev-1",
                new AlarmCommand(
                        Ids.newId(),
                        1,
                        raised.alarmId(),
                        "r1",
                        "dev-1",
                        AlarmCommand.Action.ACKNOWLEDGE,
                        "operator",
                        T0.plusSeconds(21)));

        var acknowledged = alarms.readValuesToList();
        assertThat(acknowledged).hasSize(1);
        assertThat(acknowledged.getFirst().alarmId()).isEqualTo(raised.alarmId());
        assertThat(acknowledged.getFirst().state()).isEqualTo(AlarmState.CLEARED);
        assertThat(acknowledged.getFirst().acknowledged()).isTrue();
        assertThat(acknowledged.getFirst().clearedAt()).isEqualTo(cleared.clearedAt());
        assertThat(acknowledged.getFirst().acknowledgedAt()).isEqualTo(T0.plusSeconds(20));
    }

    @Test
    void shouldSkipAPoisonPillAndKeepEvaluating() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "temperature > 30", null, null));

        rawDataUnits.pipeInput("dev-1", "{not json".getBytes());
        dataUnits.pipeInput("dev-1", unit("dev-1", 35.0, 0));

        assertThat(alarms.readValuesToList()).hasSize(1);
    }

    @Test
    void shouldNotMatchWhenAMeasurementIsMissing() {
        rules.apply("r1", threshold("r1", RuleFilter.ANY, "humidity > 30", null, null));

        dataUnits.pipeInput("dev-1", unit("dev-1", 35.0, 0));

        assertThat(alarms.isEmpty()).isTrue();
        assertThat(metrics.evaluations()).isEqualTo(1);
    }

    /** Advances the wall clock one second at a time, a punctuation each. */
    private void tick(int seconds) {
        for (int i = 0; i < seconds; i++) {
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }
    }

    private static Rule threshold(String id, RuleFilter filter, String condition, String clear, String holdFor) {
        return new Rule(id, 1, "hot", filter, Rule.RuleType.THRESHOLD, condition, clear, holdFor, null, null, true, T0);
    }

    private static Rule inactivity(String id, String inactiveFor) {
        return new Rule(
                id,
                1,
                "quiet",
                new RuleFilter("irrigation", null, null),
                Rule.RuleType.INACTIVITY,
                null,
                null,
                null,
                inactiveFor,
                Severity.WARNING,
                true,
                T0);
    }

    private static DataUnit unit(String deviceId, double temperature, long second) {
        return new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "irrigation",
                "em300th",
                deviceId,
                T0.plusSeconds(second),
                T0.plusSeconds(second),
                T0.plusSeconds(second),
                Map.of("temperature", temperature),
                Map.of());
    }

    private static DataUnit unit(String deviceId, double temperature, long second, double humidity) {
        return new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "irrigation",
                "em300th",
                deviceId,
                T0.plusSeconds(second),
                T0.plusSeconds(second),
                T0.plusSeconds(second),
                Map.of("temperature", temperature, "humidity", humidity),
                Map.of());
    }
}
