package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.notify.history.HistoryStore.Stored;
import java.io.StringWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionOperations;
import tools.jackson.core.JsonGenerator;

/** The SQL that writes data units to the history and moves each device's latest reading in {@code devices}. */
final class DataUnitWrites {

    /** Moves a device's latest reading to the row's, when the row is newer, for each row of {@code r}. */
    private static final String UPSERT_DEVICES = """
            INSERT INTO devices (%1$s)
            SELECT %2$s FROM r
            ON CONFLICT (channel, device_id) DO UPDATE SET device_type = EXCLUDED.device_type, id = EXCLUDED.id,
                received_at = EXCLUDED.received_at, uplink_id = EXCLUDED.uplink_id,
                measured_at = EXCLUDED.measured_at, decoded_at = EXCLUDED.decoded_at,
                schema_version = EXCLUDED.schema_version, measurements = EXCLUDED.measurements,
                attributes = EXCLUDED.attributes, measured_ns = EXCLUDED.measured_ns,
                received_ns = EXCLUDED.received_ns, decoded_ns = EXCLUDED.decoded_ns
            WHERE (devices.received_at, devices.measured_at, devices.id)
                < (EXCLUDED.received_at, EXCLUDED.measured_at, EXCLUDED.id)""";

    /** The column types of a row as {@link #rows} writes it. */
    private static final String RECORD = "id uuid, received_at timestamptz, uplink_id uuid, measured_at timestamptz,"
            + " decoded_at timestamptz, schema_version smallint, channel text, device_type text, device_id text,"
            + " measurements jsonb, attributes jsonb, measured_ns smallint, received_ns smallint, decoded_ns smallint";

    /** The columns a new history row is written with: what is read back, and the uplink's digest. */
    private static final String INSERT_COLUMNS = HistoryStore.COLUMNS + ", uplink_digest";

    /** The columns of {@code devices}, its key first as the table declares them. */
    private static final String DEVICE_COLUMNS = "channel, device_id, device_type, id, received_at, uplink_id,"
            + " measured_at, decoded_at, schema_version, measurements, attributes, measured_ns, received_ns, decoded_ns";

    /**
     * A batch's history rows in one statement: the rows parsed once; each row probes the primary key for a stored
     * copy (a lateral subquery, so a nested loop over the index, never a hash anti join over the window's
     * partitions).
     */
    private static final String WRITE_HISTORY = insertHistory() + " SELECT count(*) FROM ins";

    private static String insertHistory() {
        return """
                            WITH parsed AS MATERIALIZED (
                                SELECT %1$s FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(%2$s)),
                            ins AS (
                                INSERT INTO data_units (%1$s)
                                SELECT %1$s FROM parsed r
                                LEFT JOIN LATERAL (SELECT 1 AS found FROM data_units d WHERE d.id = r.id
                                                   AND d.received_at BETWEEN r.received_at - CAST(:window AS interval)
                                                                         AND r.received_at + CAST(:window AS interval)
                                                   LIMIT 1) stored ON true
                                WHERE stored.found IS NULL
                                ON CONFLICT (id, received_at) DO NOTHING
                                RETURNING id, received_at)""".formatted(INSERT_COLUMNS, RECORD + ", uplink_digest bigint");
    }

    /** Moves each device's latest reading to the given rows' (one per device), where they are newer. */
    private static final String UPSERT_NEWEST = "WITH r AS (SELECT * FROM jsonb_to_recordset(CAST(:rows AS jsonb))"
            + " AS r(%s)) %s".formatted(RECORD, UPSERT_DEVICES.formatted(DEVICE_COLUMNS, DEVICE_COLUMNS));

    private static final String RETRY_WINDOW = HistoryStore.RETRY_WINDOW.toString();

    private final NamedParameterJdbcTemplate jdbc;
    private final TransactionOperations transactions;

    DataUnitWrites(NamedParameterJdbcTemplate jdbc, TransactionOperations transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** See {@link HistoryStore#storeDataUnits}: the history rows, then their devices, in one transaction. */
    List<Stored<DataUnit>> store(List<Stored<DataUnit>> units) {
        if (units.isEmpty()) {
            return List.of();
        }
        return transactions.execute(status -> {
            var conflicts = storeHistory(units);
            moveLatest(notRefused(units, conflicts));
            return conflicts;
        });
    }

    /** The units of {@code units} that {@code conflicts} (the same instances) does not hold. */
    static List<DataUnit> notRefused(List<Stored<DataUnit>> units, List<Stored<DataUnit>> conflicts) {
        if (conflicts.isEmpty()) {
            return units.stream().map(Stored::event).toList();
        }
        var refused = Collections.newSetFromMap(new IdentityHashMap<Stored<DataUnit>, Boolean>());
        refused.addAll(conflicts);
        return units.stream()
                .filter(stored -> !refused.contains(stored))
                .map(Stored::event)
                .toList();
    }

    /** See {@link HistoryStore#storeHistory}. */
    List<Stored<DataUnit>> storeHistory(List<Stored<DataUnit>> units) {
        if (units.isEmpty()) {
            return List.of();
        }
        return transactions.execute(status -> {
            // The probes below must stay index lookups whatever the planner's statistics say. A plan cached while
            // the day's partition was new and small (a fresh stack, the first minutes of a day, before autoanalyze)
            // scanned the whole partition for each batch, or for each row: a cost that grew with the day's rows.
            jdbc.getJdbcTemplate().execute("SET LOCAL enable_seqscan = off");
            return write(units);
        });
    }

    /** See {@link HistoryStore#moveLatest}. */
    void moveLatest(Collection<DataUnit> units) {
        if (!units.isEmpty()) {
            jdbc.update(UPSERT_NEWEST, new MapSqlParameterSource("rows", newestRows(units)));
        }
    }

    private List<Stored<DataUnit>> write(List<Stored<DataUnit>> units) {
        var first = new LinkedHashMap<UUID, Stored<DataUnit>>();
        units.forEach(stored -> first.putIfAbsent(stored.event().id(), stored));
        var rows = rows(first.values());
        var window = RETRY_WINDOW;
        Integer inserted = jdbc.queryForObject(
                WRITE_HISTORY, new MapSqlParameterSource("rows", rows).addValue("window", window), Integer.class);
        // The digests each id has in the store: those of this batch's firsts when all of them were inserted, so
        // only then (a replay, a retry, a conflict) is the store asked which.
        var known = new HashMap<UUID, Set<Long>>();
        if (inserted != null && inserted == first.size()) {
            if (first.size() == units.size()) {
                return List.of();
            }
            first.forEach((id, stored) ->
                    known.put(id, stored.uplinkDigest() == null ? Set.of() : Set.of(stored.uplinkDigest())));
        } else {
            jdbc.query("""
                    SELECT r.id, d.uplink_digest FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(id uuid,
                        received_at timestamptz)
                    CROSS JOIN LATERAL (SELECT d.uplink_digest FROM data_units d WHERE d.id = r.id
                        AND d.received_at BETWEEN r.received_at - CAST(:window AS interval)
                                              AND r.received_at + CAST(:window AS interval)
                        OFFSET 0) d""", new MapSqlParameterSource("rows", rows).addValue("window", window), row -> {
                var digest = (Long) row.getObject(2);
                var digests = known.computeIfAbsent(row.getObject(1, UUID.class), id -> new HashSet<>());
                if (digest != null) {
                    digests.add(digest);
                }
            });
        }
        // A copy conflicts when its id is stored with digests and its own is not among them (a row without a
        // digest, written before digests, conflicts with nothing).
        var conflicts = new ArrayList<Stored<DataUnit>>();
        for (var stored : units) {
            var digests = known.getOrDefault(stored.event().id(), Set.of());
            if (stored.uplinkDigest() != null && !digests.isEmpty() && !digests.contains(stored.uplinkDigest())) {
                conflicts.add(stored);
            }
        }
        return conflicts;
    }

    /** One row per device, its newest of {@code units}, devices in key order so two writers never deadlock. */
    private static String newestRows(Collection<DataUnit> units) {
        return rows(LatestReadings.newestPerDevice(units).values().stream()
                .map(u -> new Stored<>(u, null))
                .toList());
    }

    /**
     * A JSON array of the rows: times in microseconds (what PostgreSQL keeps) with the nanoseconds beyond apart;
     * written as a stream, absent values left out (jsonb_to_recordset reads them as NULL).
     */
    private static String rows(Collection<Stored<DataUnit>> units) {
        var out = new StringWriter(units.size() * 512);
        try (var json = EventJson.mapper().createGenerator(out)) {
            json.writeStartArray();
            for (var stored : units) {
                var unit = stored.event();
                json.writeStartObject();
                json.writeStringProperty("id", unit.id().toString());
                micros(json, "received_at", unit.receivedAt());
                if (unit.uplinkId() != null) {
                    json.writeStringProperty("uplink_id", unit.uplinkId().toString());
                }
                micros(json, "measured_at", unit.measuredAt());
                micros(json, "decoded_at", unit.decodedAt());
                json.writeNumberProperty("schema_version", unit.schemaVersion());
                json.writeStringProperty("channel", unit.channel());
                json.writeStringProperty("device_type", unit.deviceType());
                json.writeStringProperty("device_id", unit.deviceId());
                json.writePOJOProperty("measurements", unit.measurements());
                if (!unit.attributes().isEmpty()) {
                    json.writePOJOProperty("attributes", unit.attributes());
                }
                nanos(json, "measured_ns", unit.measuredAt());
                nanos(json, "received_ns", unit.receivedAt());
                nanos(json, "decoded_ns", unit.decodedAt());
                if (stored.uplinkDigest() != null) {
                    json.writeNumberProperty("uplink_digest", stored.uplinkDigest());
                }
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        return out.toString();
    }

    private static void micros(JsonGenerator json, String name, Instant instant) {
        if (instant != null) {
            json.writeStringProperty(name, EventJson.instantText(instant.truncatedTo(ChronoUnit.MICROS)));
        }
    }

    private static void nanos(JsonGenerator json, String name, Instant instant) {
        if (instant != null && instant.getNano() % 1000 != 0) {
            json.writeNumberProperty(name, instant.getNano() % 1000);
        }
    }
}
