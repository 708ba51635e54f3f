package dev.iotpipeline.notify.history;

import static dev.iotpipeline.notify.history.QueryParameters.invalid;
import static dev.iotpipeline.notify.history.QueryParameters.requireChannel;
import static dev.iotpipeline.notify.history.QueryParameters.scope;
import static dev.iotpipeline.notify.history.QueryParameters.size;
import static dev.iotpipeline.notify.history.QueryParameters.upper;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Data-unit history and device queries; the credential limits every answer to the channels it may read, and
 * naming a channel it may not read is a 403.
 */
@RestController
class HistoryController {

    private final HistoryStore store;
    private final RegisteredDevices registered;
    private final NotifyProperties.History limits;

    HistoryController(HistoryStore store, RegisteredDevices registered, NotifyProperties properties) {
        this.store = store;
        this.registered = registered;
        this.limits = properties.history();
    }

    @GetMapping("/data-units")
    HistoryStore.Page dataUnits(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to,
            @RequestParam(required = false) UUID cursor,
            @RequestParam(required = false) Integer limit,
            @RequestParam(required = false) String order) {
        var query = new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to);
        return store.page(query, cursor, size(limit, limits), newestFirst(order));
    }

    /** The newest data unit of each device the filters match, the most recently heard devices first. */
    @GetMapping("/data-units/latest")
    List<DataUnit> latest(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to,
            @RequestParam(required = false) Integer limit) {
        return store.latestPerDevice(
                new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to), size(limit, limits));
    }

    /** The latest reading of each device the filters match, the most recently heard first. */
    @GetMapping("/devices")
    List<HistoryStore.Device> devices(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to,
            @RequestParam(required = false) Integer limit) {
        return store.devices(
                new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to), size(limit, limits));
    }

    /**
     * A channel's registered devices in id order, page by page ({@code after} is the previous page's {@code next}),
     * with when each was last heard: the registry as ingest keeps it, mirrored from the devices topic.
     */
    @GetMapping("/devices/registered")
    RegisteredDevices.Page registered(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String after,
            @RequestParam(required = false) Boolean enabled,
            @RequestParam(required = false) Integer limit) {
        required("channel", channel);
        requireChannel(auth, channel);
        return registered.page(channel, after, enabled, size(limit, limits));
    }

    /**
     * Exact by default, as "were all stored" checks need; {@code estimate=true} answers from PostgreSQL's
     * statistics instead, instantly on any history, and says so with {@code "estimated": true}.
     */
    @GetMapping("/data-units/count")
    Map<String, Object> count(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String deviceType,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to,
            @RequestParam(defaultValue = "false") boolean estimate) {
        var query = new DataUnitQuery(scope(auth, channel), channel, deviceType, deviceId, from, to);
        return estimate
                ? Map.of("count", store.estimateCount(query), "estimated", true)
                : Map.of("count", store.count(query));
    }

    /**
     * Aggregates of measurements of one device per time bucket, by the time each reading was measured:
     * {@code measurement} and {@code fn} take comma-separated lists.
     */
    @GetMapping("/data-units/aggregate")
    Map<String, Object> aggregate(
            @AuthenticationPrincipal Credential auth,
            @RequestParam(required = false) String channel,
            @RequestParam(required = false) String deviceId,
            @RequestParam(required = false) String measurement,
            @RequestParam(required = false) Instant from,
            @RequestParam(required = false) Instant to,
            @RequestParam(defaultValue = "PT1H") String bucket,
            @RequestParam(defaultValue = "avg,min,max,count") String fn) {
        // A device id names a device within its channel, so the channel is part of what is aggregated.
        required("channel", channel);
        required("deviceId", deviceId);
        required("measurement", measurement);
        required("from", from);
        required("to", to);
        if (!to.isAfter(from)) {
            throw invalid("to", "to: must be after from");
        }
        var stride = stride(bucket);
        if (Duration.between(from, to).dividedBy(stride) > limits.maxBuckets()) {
            throw invalid(
                    "bucket",
                    "bucket: " + bucket + " makes more than " + limits.maxBuckets() + " buckets between from and to");
        }
        var functions = AggregateFunction.parse(fn);
        var names = List.of(measurement.split(",", -1));
        if (names.stream().anyMatch(String::isBlank) || names.size() > 32) {
            throw invalid("measurement", "measurement: one to 32 names, comma-separated");
        }
        var query = new DataUnitQuery(scope(auth, channel), channel, null, deviceId, null, null);
        var series = new LinkedHashMap<String, List<Map<String, Object>>>();
        for (var name : names) {
            series.put(
                    name,
                    store.aggregate(query, name, from, to, stride).stream()
                            .map(b -> AggregateFunction.render(b, functions))
                            .toList());
        }
        var answer = new LinkedHashMap<String, Object>();
        answer.put("channel", channel);
        answer.put("deviceId", deviceId);
        answer.put("from", from);
        answer.put("to", to);
        answer.put("bucket", stride.toString());
        answer.put("fn", functions.stream().map(AggregateFunction::label).toList());
        answer.put("series", series);
        return answer;
    }

    /** An ISO-8601 duration of at least a second (PT1M, PT1H, P1D); months and years are not fixed lengths. */
    private static Duration stride(String bucket) {
        try {
            var stride = Duration.parse(bucket);
            if (stride.compareTo(Duration.ofSeconds(1)) >= 0 && stride.getNano() == 0) {
                return stride;
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        throw invalid(
                "bucket",
                "bucket: '" + bucket + "' is not an ISO-8601 duration of whole seconds, at least PT1S"
                        + " (PT1M, PT15M, PT1H, P1D)");
    }

    private static void required(String name, Object value) {
        if (value == null) {
            throw invalid(name, name + ": required");
        }
    }

    @GetMapping("/data-units/{id}")
    DataUnit dataUnit(@AuthenticationPrincipal Credential auth, @PathVariable UUID id) {
        var unit = store.find(id)
                .orElseThrow(() -> Problems.of(HttpStatus.NOT_FOUND, "unknown-data-unit", "No data unit " + id));
        requireChannel(auth, unit.channel());
        return unit;
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
        throw invalid("order", "order: '" + order + "' is not one of asc, desc");
    }
}
