package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.EventJson;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/** PostgreSQL history of alarms: the latest state of each, by alarm id. */
public class AlarmStore {

    /** Which alarms to list; {@code channels} is the token's scope (null = all). */
    public record AlarmQuery(
            Set<String> channels,
            String channel,
            String state,
            String severity,
            String deviceId,
            Boolean acknowledged) {}

    private final NamedParameterJdbcTemplate jdbc;

    public AlarmStore(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Keeps the latest state per alarm; an older event arriving late never overwrites a newer one. */
    public void storeAlarms(List<HistoryStore.Stored<AlarmEvent>> events) {
        if (events.isEmpty()) {
            return;
        }
        // One row per alarm, in id order: the batch may become one multi-row statement (reWriteBatchedInserts),
        // which may not update a row twice, and two writers then lock rows in the same order.
        var latest = new TreeMap<UUID, HistoryStore.Stored<AlarmEvent>>();
        for (var stored : events) {
            latest.merge(
                    stored.event().alarmId(),
                    stored,
                    (a, b) -> updatedAt(b.event()).isBefore(updatedAt(a.event())) ? a : b);
        }
        var batch = latest.values().stream()
                .map(s -> {
                    var e = s.event();
                    return new MapSqlParameterSource()
                            .addValue("alarmId", e.alarmId())
                            .addValue("lastEvent", e.id())
                            .addValue("ruleId", e.ruleId())
                            .addValue("severity", e.severity().name())
                            .addValue("state", e.state().name())
                            .addValue("acknowledged", e.acknowledged())
                            .addValue("channel", e.channel())
                            .addValue("deviceId", e.deviceId())
                            .addValue("raisedAt", ts(e.raisedAt()))
                            .addValue("updatedAt", ts(updatedAt(e)))
                            .addValue("body", s.json());
                })
                .toArray(SqlParameterSource[]::new);
        jdbc.batchUpdate("""
                INSERT INTO alarms (alarm_id, last_event, rule_id, severity, state, acknowledged, channel, device_id,
                                    raised_at, updated_at, body)
                VALUES (:alarmId, :lastEvent, :ruleId, :severity, :state, :acknowledged, :channel, :deviceId,
                        :raisedAt, :updatedAt, CAST(:body AS jsonb))
                ON CONFLICT (alarm_id) DO UPDATE SET last_event = EXCLUDED.last_event, state = EXCLUDED.state,
                    acknowledged = EXCLUDED.acknowledged, updated_at = EXCLUDED.updated_at, body = EXCLUDED.body
                WHERE alarms.updated_at <= EXCLUDED.updated_at""", batch);
    }

    /** Alarms by latest state, newest first; null arguments do not filter. */
    public List<AlarmEvent> alarms(AlarmQuery query, int limit) {
        var params = new MapSqlParameterSource("limit", limit);
        var where = alarmWhere(query, params);
        return jdbc.query(
                "SELECT body::text FROM alarms WHERE " + where + " ORDER BY alarm_id DESC LIMIT :limit",
                params,
                (rs, i) -> EventJson.read(rs.getBytes(1), AlarmEvent.class));
    }

    public long countAlarms(AlarmQuery query) {
        var params = new MapSqlParameterSource();
        Long count = jdbc.queryForObject(
                "SELECT count(*) FROM alarms WHERE " + alarmWhere(query, params), params, Long.class);
        return count == null ? 0 : count;
    }

    private static String alarmWhere(AlarmQuery query, MapSqlParameterSource params) {
        var where = new StringBuilder("TRUE");
        if (query.channels() != null) {
            where.append(" AND channel IN (:channels)");
            params.addValue("channels", query.channels().isEmpty() ? List.of("") : List.copyOf(query.channels()));
        }
        condition(where, params, "channel", query.channel());
        condition(where, params, "state", query.state());
        condition(where, params, "severity", query.severity());
        condition(where, params, "device_id", query.deviceId());
        condition(where, params, "acknowledged", query.acknowledged());
        return where.toString();
    }

    private static void condition(StringBuilder where, MapSqlParameterSource params, String column, Object value) {
        if (value != null) {
            where.append(" AND ").append(column).append(" = :").append(column);
            params.addValue(column, value);
        }
    }

    public Optional<AlarmEvent> alarm(UUID alarmId) {
        return jdbc
                .query(
                        "SELECT body::text FROM alarms WHERE alarm_id = :id",
                        new MapSqlParameterSource("id", alarmId),
                        (rs, i) -> EventJson.read(rs.getBytes(1), AlarmEvent.class))
                .stream()
                .findFirst();
    }

    private static Instant updatedAt(AlarmEvent e) {
        return Stream.of(e.raisedAt(), e.clearedAt(), e.acknowledgedAt())
                .filter(Objects::nonNull)
                .max(Instant::compareTo)
                .orElse(Instant.EPOCH);
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
