package dev.iotpipeline.events;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** A change in the life of one alarm: raised, cleared or acknowledged; alarmId stays the same throughout. */
public record AlarmEvent(
        UUID id,
        int schemaVersion,
        UUID alarmId,
        String ruleId,
        String ruleName,
        Severity severity,
        AlarmState state,
        boolean acknowledged,
        String channel,
        String deviceType,
        String deviceId,
        UUID dataUnitId,
        Map<String, Double> values,
        Instant receivedAt,
        Instant raisedAt,
        Instant clearedAt,
        Instant acknowledgedAt) {

    public static final int SCHEMA_VERSION = 1;

    public AlarmEvent {
        values = values == null ? Map.of() : Map.copyOf(values);
    }
}
