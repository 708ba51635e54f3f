package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.tracing.RecordTracing;
import dev.iotpipeline.rules.rule.CompiledRule;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Evaluates the matching rules on each data unit. The store holds per (rule, device) the one active alarm,
 * the start of a duration rule's streak and the device's last report; a wall-clock punctuation raises
 * inactivity alarms and clears alarms whose rule was deleted or disabled, scanning the store only when the rules
 * changed or an inactivity deadline came. Event ids derive from their
 * cause (a data unit, or for inactivity the silence after a device's last report), so a replay after a crash
 * yields the same events.
 */
class AlarmProcessor implements Processor<String, DataUnit, String, AlarmEvent> {

    private final RuleSet rules;
    private final Clock clock;
    private final RuleMetrics metrics;
    private final Duration punctuationInterval;
    private ProcessorContext<String, AlarmEvent> context;
    private KeyValueStore<String, DeviceRuleState> states;
    /** The data unit being processed; null in punctuations, whose alarms have no triggering record. */
    private Headers triggering;

    private UUID triggeringUplink;

    private String task;
    /** The rules' version the last sweep saw; none yet, so the first punctuation sweeps. */
    private long sweptVersion = -1;
    /** The earliest inactivity deadline of any state since the last sweep; null while none is known. */
    private Instant nextDeadline;
    /** This task's state entries: counted by each sweep, kept by every insert and delete between them. */
    private long entries;

    AlarmProcessor(RuleSet rules, Clock clock, RuleMetrics metrics, Duration punctuationInterval) {
        this.rules = rules;
        this.clock = clock;
        this.metrics = metrics;
        this.punctuationInterval = punctuationInterval;
    }

    @Override
    public void init(ProcessorContext<String, AlarmEvent> context) {
        this.context = context;
        this.states = context.getStateStore(AlarmTopology.ALARM_STATE_STORE);
        this.task = context.taskId().toString();
        context.schedule(
                punctuationInterval,
                PunctuationType.WALL_CLOCK_TIME,
                timestamp -> onClock(Instant.ofEpochMilli(timestamp)));
    }

    @Override
    public void close() {
        metrics.closed(task);
    }

    /**
     * Sweeps when the rules changed since the last sweep (a deleted or disabled rule's alarms clear within the
     * interval) or an inactivity deadline has come; otherwise does nothing. Sweeping every interval read and
     * deserialized every (rule, device) state each second, at rest too: a cost that grew with the fleet.
     */
    private void onClock(Instant now) {
        long version = rules.version();
        if (version != sweptVersion || (nextDeadline != null && !now.isBefore(nextDeadline))) {
            // Taken before the sweep: a change that lands during it is swept at the next tick.
            sweptVersion = version;
            sweep(now);
        }
    }

    @Override
    public void process(Record<String, DataUnit> record) {
        long started = System.nanoTime();
        metrics.polled(record.timestamp());
        var unit = record.value();
        triggering = record.headers();
        triggeringUplink = unit.uplinkId();
        int matched;
        try {
            matched = evaluateAll(unit);
        } finally {
            triggering = null;
            triggeringUplink = null;
        }
        metrics.evaluated(matched, System.nanoTime() - started);
    }

    /** Returns how many rules matched the unit. */
    private int evaluateAll(DataUnit unit) {
        var matching = rules.matching(unit);
        for (var rule : matching) {
            var key = key(rule.rule().id(), unit.deviceId());
            var stored = states.get(key);
            var state = stored != null
                    ? stored
                    : new DeviceRuleState(
                            rule.rule().id(), unit.channel(), unit.deviceType(), unit.deviceId(), null, null, null);
            var next = rule.inactivity() ? reported(rule, state, unit) : evaluate(rule, state, unit);
            if (!next.equals(state)) {
                if (stored == null) {
                    entries++;
                    metrics.stateEntries(task, entries);
                }
                states.put(key, next);
            }
            if (rule.inactivity()) {
                deadline(next.lastSeen().plus(rule.inactiveFor()));
            }
        }
        return matching.size();
    }

    private DeviceRuleState reported(CompiledRule rule, DeviceRuleState state, DataUnit unit) {
        var next = state.withLastSeen(unit.receivedAt());
        if (state.active() != null) {
            forward(clear(state.active(), unit.id(), unit.measurements(), unit.receivedAt()));
            return next.withActive(null);
        }
        return next;
    }

    private DeviceRuleState evaluate(CompiledRule rule, DeviceRuleState state, DataUnit unit) {
        if (state.active() != null) {
            if (rule.clears(unit.measurements())) {
                forward(clear(state.active(), unit.id(), unit.measurements(), unit.receivedAt()));
                return state.withActive(null);
            }
            return state;
        }
        if (!rule.raises(unit.measurements())) {
            return state.pendingSince() == null ? state : state.withPendingSince(null);
        }
        var since = state.pendingSince() != null ? state.pendingSince() : unit.receivedAt();
        if (Duration.between(since, unit.receivedAt()).compareTo(rule.holdFor()) < 0) {
            return state.withPendingSince(since);
        }
        var alarmId = Ids.derive(unit.id(), "alarm:" + rule.rule().id());
        var raised = raise(rule, state, alarmId, unit.id(), unit.measurements(), unit.receivedAt());
        forward(raised);
        return state.withActive(raised);
    }

    /**
     * Inactivity alarms, and alarms of rules that are gone or disabled, are decided by the clock: one pass over this
     * task's state, which also finds the next inactivity deadline and counts the entries.
     */
    private void sweep(Instant now) {
        long started = System.nanoTime();
        var changes = new ArrayList<SimpleEntry<String, DeviceRuleState>>();
        long count = 0;
        nextDeadline = null;
        try (var all = states.all()) {
            while (all.hasNext()) {
                count++;
                var entry = all.next();
                var state = entry.value;
                var rule = rules.compiled(state.ruleId());
                if (rule.isEmpty() || !rule.get().rule().enabled()) {
                    if (state.active() != null) {
                        forward(clear(state.active(), null, Map.of(), now));
                    }
                    changes.add(new SimpleEntry<>(entry.key, null));
                } else if (rule.get().inactivity() && state.active() == null && state.lastSeen() != null) {
                    var due = state.lastSeen().plus(rule.get().inactiveFor());
                    if (now.isBefore(due)) {
                        deadline(due);
                    } else {
                        var alarmId = inactivityId(state, rule.get().inactiveFor());
                        var raised = raise(rule.get(), state, alarmId, null, Map.of(), state.lastSeen());
                        forward(raised);
                        changes.add(new SimpleEntry<>(entry.key, state.withActive(raised)));
                    }
                }
            }
        }
        for (var change : changes) {
            if (change.getValue() == null) {
                states.delete(change.getKey());
                count--;
            } else {
                states.put(change.getKey(), change.getValue());
            }
        }
        entries = count;
        metrics.stateEntries(task, entries);
        metrics.swept(System.nanoTime() - started);
    }

    /** An inactivity deadline of a state that has not alarmed: the clock sweeps no later than the earliest. */
    private void deadline(Instant due) {
        if (nextDeadline == null || due.isBefore(nextDeadline)) {
            nextDeadline = due;
        }
    }

    private AlarmEvent raise(
            CompiledRule compiled,
            DeviceRuleState state,
            UUID alarmId,
            UUID dataUnitId,
            Map<String, Double> values,
            Instant receivedAt) {
        var rule = compiled.rule();
        metrics.raised(rule.severity());
        return new AlarmEvent(
                Ids.derive(alarmId, "raised"),
                AlarmEvent.SCHEMA_VERSION,
                alarmId,
                rule.id(),
                rule.name(),
                rule.severity(),
                AlarmState.ACTIVE,
                false,
                state.channel(),
                state.deviceType(),
                state.deviceId(),
                dataUnitId,
                values,
                receivedAt,
                Instant.now(clock),
                null,
                null);
    }

    private AlarmEvent clear(AlarmEvent current, UUID dataUnitId, Map<String, Double> values, Instant receivedAt) {
        metrics.cleared(current.severity());
        return new AlarmEvent(
                Ids.derive(current.alarmId(), "cleared"),
                AlarmEvent.SCHEMA_VERSION,
                current.alarmId(),
                current.ruleId(),
                current.ruleName(),
                current.severity(),
                AlarmState.CLEARED,
                current.acknowledged(),
                current.channel(),
                current.deviceType(),
                current.deviceId(),
                dataUnitId,
                values,
                receivedAt,
                current.raisedAt(),
                Instant.now(clock),
                current.acknowledgedAt());
    }

    /**
     * A record built here carries no headers of its input, so the triggering data unit's trace headers are
     * copied on: its alarm joins the uplink's trace. Its other headers are not the alarm's to carry. A unit without
     * them is in its uplink's own trace, which the alarm names in a header (it has no uplink id to derive it from).
     */
    private void forward(AlarmEvent event) {
        var headers = new RecordHeaders();
        if (triggering != null) {
            RecordTracing.copyTraceHeaders(triggering, headers);
            if (headers.lastHeader(RecordTracing.TRACEPARENT) == null && triggeringUplink != null) {
                headers.add(RecordTracing.TRACEPARENT, RecordTracing.uplinkTraceparent(triggeringUplink));
            }
        }
        context.forward(new Record<>(event.deviceId(), event, clock.millis(), headers));
    }

    /**
     * An inactivity alarm is caused by a silence: the rule, the device and its last report name it, and it is due
     * once the rule's time has passed since that report. A replay after a crash, whenever its sweep runs, raises
     * the same alarm again, not a second one.
     */
    static UUID inactivityId(DeviceRuleState state, Duration inactiveFor) {
        return Ids.named(
                state.lastSeen().plus(inactiveFor),
                "inactivity\u0000" + state.ruleId() + '\u0000' + state.channel() + '\u0000' + state.deviceId()
                        + '\u0000' + state.lastSeen());
    }

    static String key(String ruleId, String deviceId) {
        return ruleId + '|' + deviceId;
    }
}
