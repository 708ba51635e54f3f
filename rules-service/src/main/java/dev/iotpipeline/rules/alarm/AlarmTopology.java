package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import dev.iotpipeline.kafka.topic.EventSerde;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the rule-evaluation topology: the rules topic into a global store (every instance holds every rule, read
 * whole before the first data unit), data units and alarm commands in (both keyed by device id, so they share
 * partitions and state), alarm events out, per (rule, device) state in a changelogged store.
 */
public final class AlarmTopology {

    public static final String ALARM_STATE_STORE = "alarm-state";

    /** The rules as the rules topic holds them; a global store, so it needs no changelog of its own. */
    public static final String RULES_STORE = "rules";

    private AlarmTopology() {}

    /** Returns the alarm stream, which is also written to the alarms topic. */
    public static KStream<String, AlarmEvent> build(
            StreamsBuilder builder, RuleSet rules, Clock clock, RuleMetrics metrics, Duration punctuationInterval) {
        builder.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.inMemoryKeyValueStore(RULES_STORE),
                                Serdes.String(),
                                PipelineTopic.RULES.valueSerde())
                        .withLoggingDisabled(),
                PipelineTopic.RULES.topicName(),
                // Read as bytes and parsed by RuleUpdates, which skips a record that is not a rule: the global
                // thread must never stop on one, and a deserialization failure there would stop the whole client.
                Consumed.with(Serdes.String(), Serdes.ByteArray()),
                () -> new RuleUpdates(rules));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(ALARM_STATE_STORE),
                Serdes.String(),
                new EventSerde<>(DeviceRuleState.class)));
        var fromData = builder.stream(
                        PipelineTopic.DATA_UNITS.topicName(),
                        Consumed.with(
                                Serdes.String(),
                                strict(
                                        PipelineTopic.DATA_UNITS,
                                        unit -> unit.id() != null
                                                && unit.deviceId() != null
                                                && unit.receivedAt() != null,
                                        "id, deviceId and receivedAt")))
                .filter((deviceId, unit) -> unit != null)
                .process(() -> new AlarmProcessor(rules, clock, metrics, punctuationInterval), ALARM_STATE_STORE);
        var fromCommands = builder.stream(
                        PipelineTopic.ALARM_COMMANDS.topicName(),
                        Consumed.with(
                                Serdes.String(),
                                strict(PipelineTopic.ALARM_COMMANDS, command -> command.alarmId() != null, "alarmId")))
                .filter((deviceId, command) -> command != null)
                .process(CommandProcessor::new, ALARM_STATE_STORE);
        var alarms = fromData.merge(fromCommands);
        alarms.to(PipelineTopic.ALARMS.topicName(), Produced.with(Serdes.String(), PipelineTopic.ALARMS.valueSerde()));
        return alarms;
    }

    /**
     * The event serde, but a value that is not the event, or lacks what evaluation needs, fails to deserialize
     * as malformed-event, so the deserialization handler dead-letters it instead of a filter dropping it.
     */
    static <T> Serde<T> strict(PipelineTopic<T> topic, Predicate<T> complete, String required) {
        var events = topic.valueSerde();
        var type = topic.valueType();
        Deserializer<T> reader = (name, bytes) -> {
            T event;
            try {
                event = events.deserializer().deserialize(name, bytes);
            } catch (RuntimeException e) {
                throw new UnprocessableRecordException(
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT,
                        "not a " + type.getSimpleName() + ": " + e.getMessage(),
                        e);
            }
            if (event != null && !complete.test(event)) {
                throw new UnprocessableRecordException(
                        DeadLetterHeaders.CAUSE_MALFORMED_EVENT, type.getSimpleName() + " without " + required, null);
            }
            return event;
        };
        return Serdes.serdeFrom(events.serializer(), reader);
    }
}
