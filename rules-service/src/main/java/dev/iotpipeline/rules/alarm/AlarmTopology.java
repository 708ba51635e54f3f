package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventSerde;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the rule-evaluation topology: data units and alarm commands in (both keyed by device id, so they
 * share partitions and state), alarm events out, per (rule, device) state in a changelogged store.
 */
public final class AlarmTopology {

    public static final String ALARM_STATE_STORE = "alarm-state";

    private AlarmTopology() {
    }

    /** Returns the alarm stream, which is also written to the alarms topic. */
    public static KStream<String, AlarmEvent> build(StreamsBuilder builder, RuleSet rules, Clock clock,
            RuleMetrics metrics, Duration punctuationInterval) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ALARM_STATE_STORE),
                Serdes.String(), new EventSerde<>(DeviceRuleState.class)));
        var fromData = builder.stream(PipelineTopic.DATA_UNITS.topicName(),
                        Consumed.with(Serdes.String(), new EventSerde<>(DataUnit.class)))
                .filter((deviceId, unit) -> unit != null && unit.id() != null && unit.deviceId() != null
                        && unit.receivedAt() != null)
                .process(() -> new AlarmProcessor(rules, clock, metrics, punctuationInterval), ALARM_STATE_STORE);
        var fromCommands = builder.stream(PipelineTopic.ALARM_COMMANDS.topicName(),
                        Consumed.with(Serdes.String(), new EventSerde<>(AlarmCommand.class)))
                .filter((deviceId, command) -> command != null && command.alarmId() != null)
                .process(CommandProcessor::new, ALARM_STATE_STORE);
        var alarms = fromData.merge(fromCommands);
        alarms.to(PipelineTopic.ALARMS.topicName(), Produced.with(Serdes.String(), new EventSerde<>(AlarmEvent.class)));
        return alarms;
    }
}
