package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.RegisteredDevice;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;

/** The registry's mirror in PostgreSQL: written from the devices topic, listed with each device's last-heard time. */
public class RegisteredDevices {

    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {};

    /** A registered device as {@code GET /devices/registered} lists it; {@code lastSeen} is null until it is heard. */
    public record Listed(
            String deviceId,
            String deviceType,
            Map<String, String> labels,
            boolean enabled,
            int credentials,
            Instant updatedAt,
            Instant lastSeen) {}

    /** A page of a channel's registered devices by id; {@code next} is the {@code after} of the next page. */
    public record Page(String channel, List<Listed> items, long total, String next) {}

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    RegisteredDevices(NamedParameterJdbcTemplate jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /**
     * Writes a batch read from the topic in one transaction: {@code devices} as they now are, {@code deleted} (keys
     * of tombstones) removed. A key is in at most one of them, once, so a multi-row statement never meets a row twice.
     */
    void apply(Collection<RegisteredDevice> devices, Collection<String> deleted) {
        var upserts = devices.stream()
                .map(d -> new MapSqlParameterSource()
                        .addValue("channel", d.channel())
                        .addValue("deviceId", d.deviceId())
                        .addValue("deviceType", d.deviceType())
                        .addValue("labels", EventJson.mapper().writeValueAsString(d.labels()))
                        .addValue("enabled", d.enabled())
                        .addValue("credentials", d.credentials().size())
                        .addValue("updatedAt", Timestamp.from(d.updatedAt())))
                .toArray(SqlParameterSource[]::new);
        var deletes = deleted.stream()
                .map(key -> {
                    int slash = key.indexOf('/');
                    return new MapSqlParameterSource()
                            .addValue("channel", key.substring(0, slash))
                            .addValue("deviceId", key.substring(slash + 1));
                })
                .toArray(SqlParameterSource[]::new);
        transactions.executeWithoutResult(status -> {
            if (upserts.length > 0) {
                jdbc.batchUpdate("""
                        INSERT INTO registered_devices (channel, device_id, device_type, labels, enabled, credentials,
                                                        updated_at)
                        VALUES (:channel, :deviceId, :deviceType, CAST(:labels AS jsonb), :enabled, :credentials,
                                :updatedAt)
                        ON CONFLICT (channel, device_id) DO UPDATE SET device_type = EXCLUDED.device_type,
                            labels = EXCLUDED.labels, enabled = EXCLUDED.enabled,
                            credentials = EXCLUDED.credentials, updated_at = EXCLUDED.updated_at""", upserts);
            }
            if (deletes.length > 0) {
                jdbc.batchUpdate(
                        "DELETE FROM registered_devices WHERE channel = :channel AND device_id = :deviceId", deletes);
            }
        });
    }

    /** A channel's registered devices after {@code after} in id order, {@code enabled} filtering when not null. */
    public Page page(String channel, String after, Boolean enabled, int limit) {
        var params = new MapSqlParameterSource("channel", channel)
                .addValue("after", after == null ? "" : after)
                .addValue("enabled", enabled)
                .addValue("limit", limit + 1);
        var filter = enabled == null ? "" : " AND r.enabled = :enabled";
        var items = jdbc.query("""
                SELECT r.device_id, r.device_type, r.labels, r.enabled, r.credentials, r.updated_at, d.received_at
                FROM registered_devices r
                LEFT JOIN devices d ON d.channel = r.channel AND d.device_id = r.device_id
                WHERE r.channel = :channel AND r.device_id > :after""" + filter + " ORDER BY r.device_id LIMIT :limit", params, RegisteredDevices::listed);
        Long total = jdbc.queryForObject(
                "SELECT count(*) FROM registered_devices r WHERE r.channel = :channel" + filter, params, Long.class);
        var next = items.size() > limit ? items.get(limit - 1).deviceId() : null;
        return new Page(
                channel, List.copyOf(items.subList(0, Math.min(limit, items.size()))), total == null ? 0 : total, next);
    }

    private static Listed listed(ResultSet rs, int row) throws SQLException {
        var lastSeen = rs.getTimestamp(7);
        return new Listed(
                rs.getString(1),
                rs.getString(2),
                EventJson.mapper().readValue(rs.getString(3), LABELS),
                rs.getBoolean(4),
                rs.getInt(5),
                rs.getTimestamp(6).toInstant(),
                lastSeen == null ? null : lastSeen.toInstant());
    }
}
