package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.security.core.annotation.AuthenticationPrincipal;

/**
 * One alarm, and its acknowledgement. An active alarm's acknowledgement goes to rules-service as a command
 * on alarm-commands (it owns the alarm's state and emits the acknowledged alarm); a cleared alarm is no
 * longer held there, so its acknowledged version is written to alarms from here.
 */
@RestController
class AlarmController {

    private final HistoryStore store;
    private final KafkaTemplate<String, Object> kafka;

    AlarmController(HistoryStore store, KafkaTemplate<String, Object> kafka) {
        this.store = store;
        this.kafka = kafka;
    }

    @GetMapping("/alarms/{alarmId}")
    AlarmEvent alarm(@AuthenticationPrincipal Credential auth,
            @PathVariable UUID alarmId) {
        return find(auth, alarmId);
    }

    @PostMapping("/alarms/{alarmId}/acknowledge")
    ResponseEntity<Map<String, Object>> acknowledge(
            @AuthenticationPrincipal Credential auth,
            @PathVariable UUID alarmId) throws Exception {
        var alarm = find(auth, alarmId);
        var now = Instant.now();
        if (!alarm.acknowledged()) {
            if (alarm.state() == AlarmState.ACTIVE) {
                kafka.send(PipelineTopic.ALARM_COMMANDS.topicName(), alarm.deviceId(), new AlarmCommand(Ids.newId(),
                        AlarmCommand.SCHEMA_VERSION, alarmId, alarm.ruleId(), alarm.deviceId(),
                        AlarmCommand.Action.ACKNOWLEDGE, by(auth), now)).get(10, TimeUnit.SECONDS);
            } else {
                kafka.send(PipelineTopic.ALARMS.topicName(), alarm.deviceId(), new AlarmEvent(
                        Ids.derive(alarmId, "acknowledged"), AlarmEvent.SCHEMA_VERSION, alarmId, alarm.ruleId(),
                        alarm.ruleName(), alarm.severity(), alarm.state(), true, alarm.channel(), alarm.deviceType(),
                        alarm.deviceId(), alarm.dataUnitId(), alarm.values(), alarm.receivedAt(), alarm.raisedAt(),
                        alarm.clearedAt(), now)).get(10, TimeUnit.SECONDS);
            }
        }
        return ResponseEntity.accepted().body(Map.of("alarmId", alarmId, "acknowledged", true));
    }

    /** Who acknowledged, for the audit trail: the role and the credential's id (a hash prefix, not the secret). */
    private static String by(Credential credential) {
        return credential.role().name().toLowerCase(java.util.Locale.ROOT) + ":" + credential.id();
    }

    private AlarmEvent find(Credential auth, UUID alarmId) {
        var alarm = store.alarm(alarmId).orElseThrow(() ->
                Problems.of(HttpStatus.NOT_FOUND, "unknown-alarm", "No alarm " + alarmId));
        HistoryController.requireChannel(auth, alarm.channel());
        return alarm;
    }
}
