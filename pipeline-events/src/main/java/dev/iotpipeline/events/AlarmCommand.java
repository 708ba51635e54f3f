package dev.iotpipeline.events;

import java.time.Instant;
import java.util.UUID;

/**
 * An operator's action on an alarm, sent by notify-service to the alarm-commands topic keyed by device id,
 * so it reaches the rules instance that owns the alarm's state.
 */
public record AlarmCommand(UUID id, int schemaVersion, UUID alarmId, String ruleId, String deviceId, Action action,
        String by, Instant at) {

    public static final int SCHEMA_VERSION = 1;

    /** What the operator did. */
    public enum Action { ACKNOWLEDGE }
}
