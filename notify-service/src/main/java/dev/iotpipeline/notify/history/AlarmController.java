package dev.iotpipeline.notify.history;

import static dev.iotpipeline.notify.history.QueryParameters.known;
import static dev.iotpipeline.notify.history.QueryParameters.requireChannel;
import static dev.iotpipeline.notify.history.QueryParameters.scope;
import static dev.iotpipeline.notify.history.QueryParameters.size;
import static dev.iotpipeline.notify.history.QueryParameters.upper;

import dev.iotpipeline.events.AlarmCommand;
import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Alarms by latest state, one alarm, and its acknowledgement: a command on alarm-commands, from which
 * rules-service emits the acknowledged alarm.
 */
@RestController
class AlarmController {

    private final AlarmStore store;
    private final KafkaTemplate<String, Object> kafka;
    private final NotifyProperties.History limits;

    AlarmController(AlarmStore store, KafkaTemplate<String, Object> kafka, NotifyProperties properties) {
        this.store = store;
        this.kafka = kafka;
        this.limits = properties.history();
    }

    @GetMapping("/alarms")
    List<AlarmEvent> alarms(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String state,
            @RequestParam(required = false) String severity,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Boolean acknowledged,
            @RequestParam(required = false) Integer limit) {
        return store.alarms(alarmQuery(auth, channel, state, severity, deviceId, acknowledged), size(limit, limits));
    }

    @GetMapping("/alarms/count")
    Map<String, Long> alarmCount(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String state,
            @RequestParam(required = false) String severity,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Boolean acknowledged) {
        return Map.of("count", store.countAlarms(alarmQuery(auth, channel, state, severity, deviceId, acknowledged)));
    }

    private AlarmStore.AlarmQuery alarmQuery(
            Credential auth, String channel, String state, String severity, String deviceId, Boolean acknowledged) {
        return new AlarmStore.AlarmQuery(
                scope(auth, channel),
                channel,
                known("state", upper(state), AlarmState.class),
                known("severity", upper(severity), Severity.class),
                deviceId,
                acknowledged);
    }

    @GetMapping("/alarms/{alarmId}")
    AlarmEvent alarm(@AuthenticationPrincipal Credential auth, @PathVariable UUID alarmId) {
        return find(auth, alarmId);
    }

    @PostMapping("/alarms/{alarmId}/acknowledge")
    ResponseEntity<Map<String, Object>> acknowledge(
            @AuthenticationPrincipal Credential auth, @PathVariable UUID alarmId) throws Exception {
        var alarm = find(auth, alarmId);
        var now = Instant.now();
        if (!alarm.acknowledged()) {
            // rules emits the acknowledged alarm, so alarms has one producer; a cleared alarm travels with the
            // command, since rules no longer holds it.
            kafka.send(PipelineTopic.ALARM_COMMANDS.record(
                            alarm.deviceId(),
                            new AlarmCommand(
                                    Ids.newId(),
                                    AlarmCommand.SCHEMA_VERSION,
                                    alarmId,
                                    alarm.ruleId(),
                                    alarm.deviceId(),
                                    AlarmCommand.Action.ACKNOWLEDGE,
                                    by(auth),
                                    now,
                                    alarm.state() == AlarmState.CLEARED ? alarm : null)))
                    .get(10, TimeUnit.SECONDS);
        }
        return ResponseEntity.accepted().body(Map.of("alarmId", alarmId, "acknowledged", true));
    }

    /** Who acknowledged, for the audit trail: the role and the credential's id (a hash prefix, not the secret). */
    private static String by(Credential credential) {
        return credential.role().name().toLowerCase(Locale.ROOT) + ":" + credential.id();
    }

    private AlarmEvent find(Credential auth, UUID alarmId) {
        var alarm = store.alarm(alarmId)
                .orElseThrow(() -> Problems.of(HttpStatus.NOT_FOUND, "unknown-alarm", "No alarm " + alarmId));
        requireChannel(auth, alarm.channel());
        return alarm;
    }
}
