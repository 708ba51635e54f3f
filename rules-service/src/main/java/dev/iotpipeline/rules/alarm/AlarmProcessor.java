package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.rules.rule.CompiledRule;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Evaluates the matching rules on each data unit. The store holds the one active alarm per (rule, device),
 * so a matching data unit raises only when none is active and a clearing one clears only an active alarm.
 * Event ids derive from the data unit, so a replay after a crash yields the same events.
 */
class AlarmProcessor implements Processor<String, DataUnit, String, AlarmEvent> {

    private final RuleSet rules;
    private final Clock clock;
    private ProcessorContext<String, AlarmEvent> context;
    private KeyValueStore<String, AlarmEvent> active;

    AlarmProcessor(RuleSet rules, Clock clock) {
        this.rules = rules;
        this.clock = clock;
    }

    @Override
    public void init(ProcessorContext<String, AlarmEvent> context) {
        this.context = context;
        this.active = context.getStateStore(AlarmTopology.ALARM_STATE_STORE);
    }

    @Override
    public void process(Record<String, DataUnit> record) {
        var unit = record.value();
        for (var rule : rules.matching(unit)) {
            var key = rule.rule().id() + '|' + unit.deviceId();
            var current = active.get(key);
            if (current == null) {
                if (rule.raises(unit.measurements())) {
                    var raised = raise(rule, unit);
                    active.put(key, raised);
                    context.forward(record.withKey(unit.deviceId()).withValue(raised));
                }
            } else if (rule.clears(unit.measurements())) {
                active.delete(key);
                context.forward(record.withKey(unit.deviceId()).withValue(clear(current, unit)));
            }
        }
    }

    private AlarmEvent raise(CompiledRule compiled, DataUnit unit) {
        var rule = compiled.rule();
        var alarmId = Ids.derive(unit.id(), "alarm:" + rule.id());
        return new AlarmEvent(Ids.derive(alarmId, "raised"), AlarmEvent.SCHEMA_VERSION, alarmId, rule.id(),
                rule.name(), rule.severity(), AlarmState.ACTIVE, false, unit.channel(), unit.deviceType(),
                unit.deviceId(), unit.id(), unit.measurements(), unit.receivedAt(), Instant.now(clock), null, null);
    }

    private AlarmEvent clear(AlarmEvent current, DataUnit unit) {
        return new AlarmEvent(Ids.derive(current.alarmId(), "cleared"), AlarmEvent.SCHEMA_VERSION, current.alarmId(),
                current.ruleId(), current.ruleName(), current.severity(), AlarmState.CLEARED, current.acknowledged(),
                current.channel(), current.deviceType(), current.deviceId(), unit.id(), unit.measurements(),
                unit.receivedAt(), current.raisedAt(), Instant.now(clock), current.acknowledgedAt());
    }
}
