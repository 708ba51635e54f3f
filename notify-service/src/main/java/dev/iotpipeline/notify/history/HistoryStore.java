package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

/** PostgreSQL history of data units and alarms; every write is an idempotent upsert keyed by id. */
public class HistoryStore {

    /** An event together with the exact JSON it arrived as, which is what gets stored. */
    public record Stored<T>(T event, String json) {
    }

    /** Which alarms to list; {@code channels} is the token's scope (null = all). */
    public record AlarmQuery(java.util.Set<String> channels, String channel, String state, String severity,
            String deviceId, Boolean acknowledged) {
    }

    /** One page of data units and the cursor of the next page, null on the last. */
    public record Page(List<DataUnit> items, String nextCursor) {
    }

    private final NamedParameterJdbcTemplate jdbc;

    public HistoryStore(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void storeDataUnits(List<Stored<DataUnit>> units) {
        if (units.isEmpty()) {
            return;
        }
        var batch = units.stream().map(s -> new MapSqlParameterSource()
                .addValue("id", s.event().id())
                .addValue("uplinkId", s.event().uplinkId())
                .addValue("channel", s.event().channel())
                .addValue("deviceType", s.event().deviceType())
                .addValue("deviceId", s.event().deviceId())
                .addValue("measuredAt", ts(s.event().measuredAt()))
                .addValue("receivedAt", ts(s.event().receivedAt()))
                .addValue("body", s.json())).toArray(SqlParameterSource[]::new);
        jdbc.batchUpdate("""
                INSERT INTO data_units (id, uplink_id, channel, device_type, device_id, measured_at, received_at, body)
                VALUES (:id, :uplinkId, :channel, :deviceType, :deviceId, :measuredAt, :receivedAt, CAST(:body AS jsonb))
                ON CONFLICT (id) DO NOTHING""", batch);
    }

    /** Keeps the latest state per alarm; an older event arriving late never overwrites a newer one. */
    public void storeAlarms(List<Stored<AlarmEvent>> events) {
        if (events.isEmpty()) {
            return;
        }
        var batch = events.stream().map(s -> {
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
        }).toArray(SqlParameterSource[]::new);
        jdbc.batchUpdate("""
                INSERT INTO alarms (alarm_id, last_event, rule_id, severity, state, acknowledged, channel, device_id,
                                    raised_at, updated_at, body)
                VALUES (:alarmId, :lastEvent, :ruleId, :severity, :state, :acknowledged, :channel, :deviceId,
                        :raisedAt, :updatedAt, CAST(:body AS jsonb))
                ON CONFLICT (alarm_id) DO UPDATE SET last_event = EXCLUDED.last_event, state = EXCLUDED.state,
                    acknowledged = EXCLUDED.acknowledged, updated_at = EXCLUDED.updated_at, body = EXCLUDED.body
                WHERE alarms.updated_at <= EXCLUDED.updated_at""", batch);
    }

    /** A page in id (time) order, or newest first; the cursor continues in the same direction. */
    public Page page(DataUnitQuery query, UUID after, int limit, boolean newestFirst) {
        var params = new MapSqlParameterSource();
        var where = query.where(params);
        if (after != null) {
            where += newestFirst ? " AND id < :after" : " AND id > :after";
            params.addValue("after", after);
        }
        params.addValue("limit", limit + 1);
        var items = jdbc.query("SELECT body::text FROM data_units WHERE " + where + " ORDER BY id"
                + (newestFirst ? " DESC" : "") + " LIMIT :limit",
                params, (rs, i) -> EventJson.read(rs.getBytes(1), DataUnit.class));
        if (items.size() <= limit) {
            return new Page(items, null);
        }
        var page = items.subList(0, limit);
        return new Page(List.copyOf(page), page.getLast().id().toString());
    }

    /**
     * The newest data unit of each device the query matches, the most recently heard devices first. It walks
     * the (channel, device_id, id) index from one device to the next (the next device of the same channel, else
     * the first of the next channel), then takes each device's newest row: a cost per device, not per row.
     * Measured on 500,000 rows of 500 devices: 15-90 ms, against 1.3-2 s for DISTINCT ON, which reads every row,
     * and 20 s for a step written as a row comparison, (channel, device_id) > (...), which the index does not
     * seek on once the channel is also filtered.
     */
    public List<DataUnit> latestPerDevice(DataUnitQuery query, int limit) {
        var params = new MapSqlParameterSource("limit", limit);
        var where = query.where(params);
        return jdbc.query("""
                WITH RECURSIVE devices(channel, device_id) AS (
                    (SELECT channel, device_id FROM data_units WHERE %1$s ORDER BY channel, device_id LIMIT 1)
                  UNION ALL
                    SELECT next.channel, next.device_id FROM devices d CROSS JOIN LATERAL (
                        (SELECT channel, device_id FROM data_units
                         WHERE %1$s AND channel = d.channel AND device_id > d.device_id ORDER BY device_id LIMIT 1)
                        UNION ALL
                        (SELECT channel, device_id FROM data_units
                         WHERE %1$s AND channel > d.channel ORDER BY channel, device_id LIMIT 1)
                        LIMIT 1) next
                )
                SELECT newest.body::text FROM devices d CROSS JOIN LATERAL (
                    SELECT id, body FROM data_units
                    WHERE channel = d.channel AND device_id = d.device_id AND %1$s
                    ORDER BY id DESC LIMIT 1) newest
                ORDER BY newest.id DESC LIMIT :limit""".formatted(where),
                params, (rs, i) -> EventJson.read(rs.getBytes(1), DataUnit.class));
    }

    public long count(DataUnitQuery query) {
        var params = new MapSqlParameterSource();
        var where = query.where(params);
        Long count = jdbc.queryForObject("SELECT count(*) FROM data_units WHERE " + where, params, Long.class);
        return count == null ? 0 : count;
    }

    public Optional<DataUnit> find(UUID id) {
        return jdbc.query("SELECT body::text FROM data_units WHERE id = :id", new MapSqlParameterSource("id", id),
                (rs, i) -> EventJson.read(rs.getBytes(1), DataUnit.class)).stream().findFirst();
    }

    /** Alarms by latest state, newest first; null arguments do not filter. */
    public List<AlarmEvent> alarms(AlarmQuery query, int limit) {
        var params = new MapSqlParameterSource("limit", limit);
        var where = alarmWhere(query, params);
        return jdbc.query("SELECT body::text FROM alarms WHERE " + where + " ORDER BY alarm_id DESC LIMIT :limit",
                params, (rs, i) -> EventJson.read(rs.getBytes(1), AlarmEvent.class));
    }

    public long countAlarms(AlarmQuery query) {
        var params = new MapSqlParameterSource();
        Long count = jdbc.queryForObject("SELECT count(*) FROM alarms WHERE " + alarmWhere(query, params), params,
                Long.class);
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
        return jdbc.query("SELECT body::text FROM alarms WHERE alarm_id = :id", new MapSqlParameterSource("id", alarmId),
                (rs, i) -> EventJson.read(rs.getBytes(1), AlarmEvent.class)).stream().findFirst();
    }

    private static Instant updatedAt(AlarmEvent e) {
        return Stream.of(e.raisedAt(), e.clearedAt(), e.acknowledgedAt())
                .filter(java.util.Objects::nonNull).max(Instant::compareTo).orElse(Instant.EPOCH);
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
