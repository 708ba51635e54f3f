package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.security.core.annotation.AuthenticationPrincipal;

/**
 * History queries; the credential limits every answer to the channels it may read, and naming a channel it
 * may not read is a 403.
 */
@RestController
class HistoryController {

    private final HistoryStore store;
    private final NotifyProperties.History limits;

    HistoryController(HistoryStore store, NotifyProperties properties) {
        this.store = store;
        this.limits = properties.history();
    }

    @GetMapping("/data-units")
    HistoryStore.Page dataUnits(@AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId, @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to, @RequestParam(required = false) UUID cursor,
            @RequestParam(required = false) Integer limit, @RequestParam(required = false) String order) {
        var query = new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to);
        return store.page(query, cursor, size(limit), newestFirst(order));
    }

    /** The newest data unit of each device the filters match, the most recently heard devices first. */
    @GetMapping("/data-units/latest")
    List<DataUnit> latest(@AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId, @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to, @RequestParam(required = false) Integer limit) {
        return store.latestPerDevice(
                new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to), size(limit));
    }

    @GetMapping("/data-units/count")
    Map<String, Long> count(@AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId, @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to) {
        return Map.of("count", store.count(
                new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to)));
    }

    @GetMapping("/data-units/{id}")
    DataUnit dataUnit(@AuthenticationPrincipal Credential auth,
            @PathVariable UUID id) {
        var unit = store.find(id).orElseThrow(() ->
                Problems.of(HttpStatus.NOT_FOUND, "unknown-data-unit", "No data unit " + id));
        requireChannel(auth, unit.channel());
        return unit;
    }

    @GetMapping("/alarms")
    List<AlarmEvent> alarms(@AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String state,
            @RequestParam(required = false) String severity, @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Boolean acknowledged, @RequestParam(required = false) Integer limit) {
        return store.alarms(alarmQuery(auth, channel, state, severity, deviceId, acknowledged), size(limit));
    }

    @GetMapping("/alarms/count")
    Map<String, Long> alarmCount(@AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String state,
            @RequestParam(required = false) String severity, @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Boolean acknowledged) {
        return Map.of("count", store.countAlarms(alarmQuery(auth, channel, state, severity, deviceId, acknowledged)));
    }

    private int size(Integer limit) {
        int size = limit == null ? limits.defaultLimit() : limit;
        if (size < 1 || size > limits.maxLimit()) {
            throw Problems.of(HttpStatus.BAD_REQUEST, "invalid-parameter",
                    "limit: must be between 1 and " + limits.maxLimit(), Map.of("parameter", "limit"));
        }
        return size;
    }

    /** {@code asc} (the default) pages from the oldest data unit on, {@code desc} from the newest back. */
    private static boolean newestFirst(String order) {
        var value = upper(order);
        if (value == null || value.equals("ASC")) {
            return false;
        }
        if (value.equals("DESC")) {
            return true;
        }
        throw Problems.of(HttpStatus.BAD_REQUEST, "invalid-parameter",
                "order: '" + order + "' is not one of asc, desc", Map.of("parameter", "order"));
    }

    private HistoryStore.AlarmQuery alarmQuery(Credential auth, String channel, String state, String severity,
            String deviceId, Boolean acknowledged) {
        return new HistoryStore.AlarmQuery(scope(auth, channel), channel,
                known("state", upper(state), AlarmState.class), known("severity", upper(severity), Severity.class),
                deviceId, acknowledged);
    }

    private static <E extends Enum<E>> String known(String name, String value, Class<E> values) {
        if (value != null && java.util.Arrays.stream(values.getEnumConstants()).noneMatch(e -> e.name().equals(value))) {
            throw Problems.of(HttpStatus.BAD_REQUEST, "invalid-parameter", name + ": '" + value + "' is not one of "
                    + String.join(", ", java.util.Arrays.stream(values.getEnumConstants()).map(Enum::name).toList()),
                    Map.of("parameter", name));
        }
        return value;
    }

    private static String upper(String value) {
        return value == null ? null : value.toUpperCase(java.util.Locale.ROOT);
    }

    /** The channels the credential may read (null = all), after checking the one a query names. */
    private static java.util.Set<String> scope(Credential credential, String channel) {
        if (channel != null) {
            requireChannel(credential, channel);
        }
        return credential.channels();
    }

    static void requireChannel(Credential credential, String channel) {
        if (!credential.allows(channel)) {
            throw Problems.of(HttpStatus.FORBIDDEN, "channel-forbidden",
                    "The " + credential.role().label() + " may not read channel '" + channel + "'");
        }
    }
}
