package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.Ids;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Applies operator commands to the alarm state: an acknowledgement marks the active alarm acknowledged, so
 * its later clear says so too, and emits the acknowledged alarm. An acknowledgement of an alarm already cleared
 * (the command carries it as the history holds it) emits that alarm acknowledged, so every alarm event comes
 * from here.
 */
class CommandProcessor implements Processor<String, AlarmCommand, String, AlarmEvent> {

    private ProcessorContext<String, AlarmEvent> context;
    private KeyValueStore<String, DeviceRuleState> states;

    @Override
    public void init(ProcessorContext<String, AlarmEvent> context) {
        this.context = context;
        this.states = context.getStateStore(AlarmTopology.ALARM_STATE_STORE);
    }

    @Override
    public void process(Record<String, AlarmCommand> record) {
        var command = record.value();
        if (command.action() != AlarmCommand.Action.ACKNOWLEDGE
                || command.ruleId() == null
                || command.deviceId() == null) {
            return;
        }
        var key = AlarmProcessor.key(command.ruleId(), command.deviceId());
        var state = states.get(key);
        if (state != null && state.active() != null && state.active().alarmId().equals(command.alarmId())) {
            if (!state.active().acknowledged()) {
                var acknowledged = acknowledged(state.active(), command);
                states.put(key, state.withActive(acknowledged));
                context.forward(new Record<>(acknowledged.deviceId(), acknowledged, record.timestamp()));
            }
            return;
        }
        var cleared = command.cleared();
        if (cleared != null
                && cleared.alarmId().equals(command.alarmId())
                && cleared.state() == AlarmState.CLEARED
                && !cleared.acknowledged()) {
            context.forward(new Record<>(cleared.deviceId(), acknowledged(cleared, command), record.timestamp()));
        }
    }

    /** The alarm as it is, acknowledged by the command; the id is the same whoever asks, so a replay collapses. */
    private static AlarmEvent acknowledged(AlarmEvent a, AlarmCommand command) {
        return new AlarmEvent(
                Ids.derive(a.alarmId(), "acknowledged"),
                AlarmEvent.SCHEMA_VERSION,
                a.alarmId(),
                a.ruleId(),
                a.ruleName(),
                a.severity(),
                a.state(),
                true,
                a.channel(),
                a.deviceType(),
                a.deviceId(),
                a.dataUnitId(),
                a.values(),
                a.receivedAt(),
                a.raisedAt(),
                a.clearedAt(),
                command.at());
    }
}
