package dev.iotpipeline.events;

import java.time.Instant;
import java.util.UUID;

/**
 * An operator's action on an alarm, sent by notify-service to the alarm-commands topic keyed by device id,
 * so it reaches the rules instance that owns the alarm's state. {@code cleared} is the alarm as the history
 * holds it when it is already cleared (rules no longer holds it), so rules can emit its acknowledgement too and
 * stay the only producer of alarms; null for an active alarm, and in commands written before it existed.
 */
public record AlarmCommand(
        UUID id,
        int schemaVersion,
        UUID alarmId,
        String ruleId,
        String deviceId,
        Action action,
        String by,
        Instant at,
        AlarmEvent cleared) {

    public static final int SCHEMA_VERSION = 1;

    /** A command on an alarm rules still holds. */
    public AlarmCommand(
            UUID id,
            int schemaVersion,
            UUID alarmId,
            String ruleId,
            String deviceId,
            Action action,
            String by,
            Instant at) {
        this(id, schemaVersion, alarmId, ruleId, deviceId, action, by, at, null);
    }

    /** What the operator did. */
    public enum Action {
        ACKNOWLEDGE
    }
}
