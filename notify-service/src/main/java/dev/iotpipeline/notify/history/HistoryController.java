package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.auth.DashboardTokens;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** History queries; the dashboard token limits every answer to the channels it may read. */
@RestController
class HistoryController {

    private final HistoryStore store;
    private final DashboardTokens tokens;
    private final NotifyProperties.History limits;

    HistoryController(HistoryStore store, DashboardTokens tokens, NotifyProperties properties) {
        this.store = store;
        this.tokens = tokens;
        this.limits = properties.history();
    }

    @GetMapping("/data-units")
    HistoryStore.Page dataUnits(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId, @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to, @RequestParam(required = false) UUID cursor,
            @RequestParam(required = false) Integer limit) {
        var query = new DataUnitQuery(scope(auth).channels(), channel, deviceType, deviceId, from, to);
        int size = limit == null ? limits.defaultLimit() : limit;
        if (size < 1 || size > limits.maxLimit()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "limit must be between 1 and " + limits.maxLimit());
        }
        return store.page(query, cursor, size);
    }

    @GetMapping("/data-units/count")
    Map<String, Long> count(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId, @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to) {
        return Map.of("count", store.count(
                new DataUnitQuery(scope(auth).channels(), channel, deviceType, deviceId, from, to)));
    }

    @GetMapping("/data-units/{id}")
    DataUnit dataUnit(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String auth,
            @PathVariable UUID id) {
        var scope = scope(auth);
        return store.find(id).filter(unit -> scope.allows(unit.channel()))
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No data unit " + id));
    }

    @GetMapping("/alarms")
    List<AlarmEvent> alarms(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String state,
            @RequestParam(required = false) String severity, @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Boolean acknowledged, @RequestParam(required = false) Integer limit) {
        int size = limit == null ? limits.defaultLimit() : Math.min(limit, limits.maxLimit());
        return store.alarms(alarmQuery(auth, channel, state, severity, deviceId, acknowledged), size);
    }

    @GetMapping("/alarms/count")
    Map<String, Long> alarmCount(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String auth,
            @RequestParam(required = false) String channel, @RequestParam(required = false) String state,
            @RequestParam(required = false) String severity, @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Boolean acknowledged) {
        return Map.of("count", store.countAlarms(alarmQuery(auth, channel, state, severity, deviceId, acknowledged)));
    }

    private HistoryStore.AlarmQuery alarmQuery(String auth, String channel, String state, String severity,
            String deviceId, Boolean acknowledged) {
        return new HistoryStore.AlarmQuery(scope(auth).channels(), channel,
                known("state", upper(state), AlarmState.class), known("severity", upper(severity), Severity.class),
                deviceId, acknowledged);
    }

    private static <E extends Enum<E>> String known(String name, String value, Class<E> values) {
        if (value != null && java.util.Arrays.stream(values.getEnumConstants()).noneMatch(e -> e.name().equals(value))) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, name + " must be one of "
                    + java.util.Arrays.toString(values.getEnumConstants()) + ", not '" + value + "'");
        }
        return value;
    }

    private static String upper(String value) {
        return value == null ? null : value.toUpperCase(java.util.Locale.ROOT);
    }

    private DashboardTokens.Scope scope(String authorization) {
        return tokens.resolve(DashboardTokens.bearer(authorization)).orElseThrow(() ->
                new ResponseStatusException(HttpStatus.UNAUTHORIZED, "Send a dashboard token as 'Authorization: Bearer <token>'"));
    }
}
