package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;

/** PostgreSQL history of data units, and the latest reading of each device; every write is idempotent. */
public class HistoryStore {

    /**
     * An event together with the exact JSON it arrived as (an alarm's body column; the writer leaves it null for a
     * data unit, whose row is its fields), and for a data unit the {@link
     * dev.iotpipeline.kafka.topic.UplinkDigest} of its uplink when the record carried one, and whether the record
     * said ingest minted its uplink's id ({@link dev.iotpipeline.kafka.topic.MintedId}).
     */
    public record Stored<T>(T event, String json, Long uplinkDigest, boolean mintedId) {

        public Stored(T event, String json) {
            this(event, json, null, false);
        }

        public Stored(T event, String json, Long uplinkDigest) {
            this(event, json, uplinkDigest, false);
        }
    }

    /** One page of data units and the cursor of the next page, null on the last. */
    public record Page(List<DataUnit> items, String nextCursor) {}

    private final NamedParameterJdbcTemplate jdbc;
    private final DataUnitWrites writes;
    private final Duration aggregateLateness;

    /**
     * @param aggregateLateness how long after {@code to} a reading measured before it may have been received and
     *     still be in an aggregate
     */
    public HistoryStore(
            NamedParameterJdbcTemplate jdbc, TransactionOperations transactions, Duration aggregateLateness) {
        this.jdbc = jdbc;
        this.writes = new DataUnitWrites(jdbc, transactions);
        this.aggregateLateness = aggregateLateness;
    }

    /** With its own transactions on the template's data source and a day of aggregate lateness (tools, tests). */
    public HistoryStore(NamedParameterJdbcTemplate jdbc) {
        this(
                jdbc,
                new TransactionTemplate(
                        new JdbcTransactionManager(jdbc.getJdbcTemplate().getDataSource())),
                Duration.ofDays(1));
    }

    /**
     * Inserts each data unit once, and moves each device's latest reading forward when one of these is newer than
     * what {@code devices} holds, in one transaction ({@link #storeHistory}, then {@link #moveLatest}). Once means:
     * a replay (same id and received_at) is skipped; a client's retry of an uplink (same id, received again later)
     * is skipped when a copy received within {@link #RETRY_WINDOW} of it is stored, found in those days'
     * partitions only. A copy whose uplink digest differs from the stored one's (a reused idempotency key on a
     * different uplink) is a conflict: it is not stored, does not move {@code devices}, and is returned.
     *
     * @return the units refused as conflicting retries, the same instances as given, in order
     */
    public List<Stored<DataUnit>> storeDataUnits(List<Stored<DataUnit>> units) {
        return writes.store(units);
    }

    /**
     * {@link #storeDataUnits} without moving {@code devices}: the caller moves the latest readings later with
     * {@link #moveLatest}, given every unit not returned here (those inserted, and those stored before).
     */
    public List<Stored<DataUnit>> storeHistory(List<Stored<DataUnit>> units) {
        return writes.storeHistory(units);
    }

    /**
     * Moves each device's latest reading to its newest of {@code units} where that is newer than what {@code
     * devices} holds (never backwards, so order between calls does not matter). One statement.
     */
    public void moveLatest(Collection<DataUnit> units) {
        writes.moveLatest(units);
    }

    /** How far apart two copies of one data unit may have been received and still be stored once. */
    static final Duration RETRY_WINDOW = Duration.ofDays(1);

    /** A page in id (time) order, or newest first; the cursor continues in the same direction. */
    public Page page(DataUnitQuery query, UUID after, int limit, boolean newestFirst) {
        var params = new MapSqlParameterSource();
        var where = query.where(params);
        if (after != null) {
            where += newestFirst ? " AND id < :after" : " AND id > :after";
            params.addValue("after", after);
        }
        params.addValue("limit", limit + 1);
        var items = jdbc.query(
                "SELECT " + COLUMNS + " FROM data_units WHERE " + where + " ORDER BY id" + (newestFirst ? " DESC" : "")
                        + " LIMIT :limit",
                params,
                HistoryStore::dataUnit);
        if (items.size() <= limit) {
            return new Page(items, null);
        }
        var page = items.subList(0, limit);
        return new Page(List.copyOf(page), page.getLast().id().toString());
    }

    /**
     * The newest data unit of each device the query matches, the most recently heard devices first, from the
     * {@code devices} table the writer keeps: its cost does not grow with the history. {@code from} and {@code to}
     * bound when a device was last heard.
     */
    public List<DataUnit> latestPerDevice(DataUnitQuery query, int limit) {
        var params = new MapSqlParameterSource("limit", limit);
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM devices WHERE " + query.where(params)
                        + " ORDER BY received_at DESC, measured_at DESC, id DESC LIMIT :limit",
                params,
                HistoryStore::dataUnit);
    }

    /** What {@code GET /devices} lists: each device's type, when it was last heard and its latest measurements. */
    public record Device(
            String channel,
            String deviceId,
            String deviceType,
            Instant lastSeen,
            Instant measuredAt,
            UUID lastDataUnitId,
            Map<String, Double> measurements) {}

    /** The devices the query matches, the most recently heard first. */
    public List<Device> devices(DataUnitQuery query, int limit) {
        return latestPerDevice(query, limit).stream()
                .map(u -> new Device(
                        u.channel(),
                        u.deviceId(),
                        u.deviceType(),
                        u.receivedAt(),
                        u.measuredAt(),
                        u.id(),
                        u.measurements()))
                .toList();
    }

    /** An exact count; a time range keeps it to the days it covers. */
    public long count(DataUnitQuery query) {
        var params = new MapSqlParameterSource();
        var where = query.where(params);
        Long count = jdbc.queryForObject("SELECT count(*) FROM data_units WHERE " + where, params, Long.class);
        return count == null ? 0 : count;
    }

    /**
     * PostgreSQL's planner estimate of the count, from its table statistics: instant on any history, off by
     * the statistics' error (refreshed by autovacuum as rows arrive), never read from the rows themselves.
     */
    public long estimateCount(DataUnitQuery query) {
        var params = new MapSqlParameterSource();
        var where = query.where(params);
        var plan = jdbc.queryForObject(
                "EXPLAIN (FORMAT JSON) SELECT 1 FROM data_units WHERE " + where, params, String.class);
        var rows = EventJson.mapper().readTree(plan).path(0).path("Plan").path("Plan Rows");
        return rows.isMissingNode() ? 0 : Math.round(rows.asDouble());
    }

    /** One bucket of an aggregate: its start and the functions asked for (null when not asked). */
    public record Bucket(Instant start, Long count, Double avg, Double min, Double max, Double sum) {}

    /**
     * Per-bucket aggregates of one measurement: buckets of {@code bucket} aligned to the epoch (UTC midnight for a
     * day) by the time the reading was measured, from {@code from} (inclusive) to {@code to}; a bucket without a
     * reading is left out. Only rows received from {@code from} to {@code to} plus the aggregate lateness are read,
     * so a time range reads its own days, not every day since.
     */
    public List<Bucket> aggregate(DataUnitQuery query, String measurement, Instant from, Instant to, Duration bucket) {
        var params = new MapSqlParameterSource();
        var where = new DataUnitQuery(
                        query.channels(),
                        query.channel(),
                        query.deviceType(),
                        query.deviceId(),
                        from,
                        to.plus(aggregateLateness))
                .where(params);
        params.addValue("measurement", measurement)
                .addValue("measuredFrom", ts(from))
                .addValue("measuredTo", ts(to))
                .addValue("stride", bucket.toMillis() / 1000.0);
        return jdbc.query(
                """
                SELECT date_bin(make_interval(secs => :stride), measured_at, TIMESTAMPTZ 'epoch') AS start,
                       count(v), avg(v), min(v), max(v), sum(v)
                FROM (SELECT measured_at, (measurements ->> :measurement)::float8 AS v FROM data_units
                      WHERE %s AND measured_at >= :measuredFrom AND measured_at < :measuredTo) readings
                WHERE v IS NOT NULL
                GROUP BY start ORDER BY start""".formatted(where),
                params,
                (rs, i) -> new Bucket(
                        rs.getTimestamp(1).toInstant(),
                        rs.getLong(2),
                        rs.getDouble(3),
                        rs.getDouble(4),
                        rs.getDouble(5),
                        rs.getDouble(6)));
    }

    /**
     * A data unit by id: first among the days around the time its id carries (a UUIDv7 made at ingest, so one or two
     * partitions), then, for an id a client chose, in every partition.
     */
    public Optional<DataUnit> find(UUID id) {
        var near = Ids.timeOf(id);
        var params = new MapSqlParameterSource("id", id)
                .addValue("from", ts(near.minus(RETRY_WINDOW)))
                .addValue("to", ts(near.plus(RETRY_WINDOW)));
        var found = jdbc.query(
                "SELECT " + COLUMNS + " FROM data_units WHERE id = :id" + " AND received_at BETWEEN :from AND :to",
                params,
                HistoryStore::dataUnit);
        if (found.isEmpty()) {
            found = jdbc.query("SELECT " + COLUMNS + " FROM data_units WHERE id = :id", params, HistoryStore::dataUnit);
        }
        return found.stream().findFirst();
    }

    /** The columns a {@link DataUnit} is read from, in {@code data_units} and {@code devices} alike. */
    static final String COLUMNS = "id, received_at, uplink_id, measured_at, decoded_at, schema_version, channel,"
            + " device_type, device_id, measurements, attributes, measured_ns, received_ns, decoded_ns";

    private static final TypeReference<Map<String, Double>> MEASUREMENTS = new TypeReference<>() {};
    private static final TypeReference<Map<String, Object>> ATTRIBUTES = new TypeReference<>() {};

    /** A data unit from the columns {@link #COLUMNS} names, in that order. */
    private static DataUnit dataUnit(ResultSet rs, int row) throws SQLException {
        var attributes = rs.getString(11);
        return new DataUnit(
                rs.getObject(1, UUID.class),
                rs.getShort(6),
                rs.getObject(3, UUID.class),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                instant(rs.getTimestamp(4), rs.getShort(12)),
                instant(rs.getTimestamp(2), rs.getShort(13)),
                instant(rs.getTimestamp(5), rs.getShort(14)),
                EventJson.mapper().readValue(rs.getString(10), MEASUREMENTS),
                attributes == null ? Map.of() : EventJson.mapper().readValue(attributes, ATTRIBUTES));
    }

    /** A time from its microseconds column and the nanoseconds beyond them (0 when the column is null). */
    private static Instant instant(Timestamp timestamp, short nanos) {
        return timestamp == null ? null : timestamp.toInstant().plusNanos(nanos);
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
