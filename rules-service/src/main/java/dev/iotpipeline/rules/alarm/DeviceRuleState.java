package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.AlarmEvent;
import java.time.Instant;

/**
 * What the stream remembers per (rule, device): the active alarm if any, since when a duration rule's
 * condition has held, and when the device last reported (for inactivity rules).
 */
record DeviceRuleState(
        String ruleId,
        String channel,
        String deviceType,
        String deviceId,
        AlarmEvent active,
        Instant pendingSince,
        Instant lastSeen) {

    DeviceRuleState withActive(AlarmEvent alarm) {
        return new DeviceRuleState(ruleId, channel, deviceType, deviceId, alarm, null, lastSeen);
    }

    DeviceRuleState withPendingSince(Instant since) {
        return new DeviceRuleState(ruleId, channel, deviceType, deviceId, active, since, lastSeen);
    }

    DeviceRuleState withLastSeen(Instant seen) {
        return new DeviceRuleState(ruleId, channel, deviceType, deviceId, active, pendingSince, seen);
    }
}
