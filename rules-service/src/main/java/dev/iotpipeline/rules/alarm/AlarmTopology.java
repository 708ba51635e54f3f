package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventSerde;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/** Builds the rule-evaluation topology: data units in, alarm events out, per (rule, device) state in a store. */
public final class AlarmTopology {

    public static final String ALARM_STATE_STORE = "alarm-state";

    private AlarmTopology() {
    }

    /** Returns the alarm stream, which is also written to the alarms topic. */
    public static KStream<String, AlarmEvent> build(StreamsBuilder builder, RuleSet rules, Clock clock) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ALARM_STATE_STORE),
                Serdes.String(), new EventSerde<>(AlarmEvent.class)));
        var alarms = builder.stream(PipelineTopic.DATA_UNITS.topicName(),
                        Consumed.with(Serdes.String(), new EventSerde<>(DataUnit.class)))
                .filter((deviceId, unit) -> unit != null && unit.id() != null && unit.deviceId() != null)
                .process(() -> new AlarmProcessor(rules, clock), ALARM_STATE_STORE);
        alarms.to(PipelineTopic.ALARMS.topicName(), Produced.with(Serdes.String(), new EventSerde<>(AlarmEvent.class)));
        return alarms;
    }
}
