package dev.iotpipeline.notify.history;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * Filters of the data-unit history; null fields do not filter. {@code channels} is what the caller may
 * read (null = everything), applied on top of {@code channel}.
 */
public record DataUnitQuery(
        Set<String> channels, String channel, String deviceType, String deviceId, Instant from, Instant to) {

    /** The WHERE clause and its parameters, shared by page and count so both always agree. */
    String where(MapSqlParameterSource params) {
        List<String> terms = new ArrayList<>();
        if (channels != null) {
            terms.add("channel IN (:channels)");
            params.addValue("channels", channels.isEmpty() ? List.of("") : List.copyOf(channels));
        }
        add(terms, params, "channel", "channel = :channel", channel);
        add(terms, params, "deviceType", "device_type = :deviceType", deviceType);
        add(terms, params, "deviceId", "device_id = :deviceId", deviceId);
        add(terms, params, "from", "received_at >= :from", from == null ? null : Timestamp.from(from));
        add(terms, params, "to", "received_at < :to", to == null ? null : Timestamp.from(to));
        return terms.isEmpty() ? "TRUE" : String.join(" AND ", terms);
    }

    private static void add(List<String> terms, MapSqlParameterSource params, String name, String term, Object value) {
        if (value != null) {
            terms.add(term);
            params.addValue(name, value);
        }
    }
}
