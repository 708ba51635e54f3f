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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import tools.jackson.core.JsonGenerator;

/** The SQL that writes data units to the history and moves each device's latest reading in {@code devices}. */
final class DataUnitWrites {

    /** Which of two data units of a device is its latest reading: last received, then last measured. */
    private static final Comparator<DataUnit> NEWEST = Comparator.comparing(DataUnit::receivedAt)
            .thenComparing(DataUnit::measuredAt)
            .thenComparing(DataUnit::id);

    /** The column types of a row as {@link #rows} writes it. */
    private static final String RECORD = "id uuid, received_at timestamptz, uplink_id uuid, measured_at timestamptz,"
            + " decoded_at timestamptz, schema_version smallint, channel text, device_type text, device_id text,"
            + " measurements jsonb, attributes jsonb, measured_ns smallint, received_ns smallint, decoded_ns smallint";

    /** The columns a new history row is written with: what is read back, and the uplink's digest. */
    private static final String INSERT_COLUMNS = HistoryStore.COLUMNS + ", uplink_digest";

    /** The columns of {@code devices}, its key first as the table declares them. */
    private static final String DEVICE_COLUMNS = "channel, device_id, device_type, id, received_at, uplink_id,"
            + " measured_at, decoded_at, schema_version, measurements, attributes, measured_ns, received_ns, decoded_ns";

    private final NamedParameterJdbcTemplate jdbc;

    DataUnitWrites(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** See {@link HistoryStore#storeDataUnits}. */
    List<Stored<DataUnit>> store(List<Stored<DataUnit>> units) {
        if (units.isEmpty()) {
            return List.of();
        }
        var first = new LinkedHashMap<UUID, Stored<DataUnit>>();
        units.forEach(stored -> first.putIfAbsent(stored.event().id(), stored));
        var rows = rows(first.values());
        var window = HistoryStore.RETRY_WINDOW.toString();
        int inserted = jdbc.update("""
                INSERT INTO data_units (%1$s)
                SELECT %1$s FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(%2$s)
                WHERE NOT EXISTS (SELECT 1 FROM data_units d WHERE d.id = r.id
                                  AND d.received_at BETWEEN r.received_at - CAST(:window AS interval)
                                                        AND r.received_at + CAST(:window AS interval))
                ON CONFLICT (id, received_at) DO NOTHING""".formatted(INSERT_COLUMNS, RECORD + ", uplink_digest bigint"),
                new MapSqlParameterSource("rows", rows).addValue("window", window));
        // The digests each id has in the store: those of this batch's firsts, unless a copy was there already, so
        // only then (a replay, a retry, a conflict) is the store asked which.
        var known = new HashMap<UUID, Set<Long>>();
        first.forEach((id, stored) -> known.put(id, stored.uplinkDigest() == null ? Set.of() : Set.of(stored.uplinkDigest())));
        if (inserted < first.size()) {
            known.clear();
            jdbc.query("""
                    SELECT d.id, d.uplink_digest FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(id uuid,
                        received_at timestamptz)
                    JOIN data_units d ON d.id = r.id
                        AND d.received_at BETWEEN r.received_at - CAST(:window AS interval)
                                              AND r.received_at + CAST(:window AS interval)""",
                    new MapSqlParameterSource("rows", rows).addValue("window", window), row -> {
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
        // One row per device, in key order, so two writers that briefly share devices never deadlock.
        var newest = new TreeMap<String, DataUnit>();
        var refused = Collections.newSetFromMap(new IdentityHashMap<Stored<DataUnit>, Boolean>());
        refused.addAll(conflicts);
        for (var stored : first.values()) {
            if (refused.contains(stored)) {
                continue;
            }
            var unit = stored.event();
            newest.merge(unit.channel() + '\u0000' + unit.deviceId(), unit, (a, b) -> NEWEST.compare(a, b) >= 0 ? a : b);
        }
        if (!newest.isEmpty()) {
            jdbc.update("""
                    INSERT INTO devices (%1$s)
                    SELECT %1$s FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(%2$s)
                    ON CONFLICT (channel, device_id) DO UPDATE SET device_type = EXCLUDED.device_type, id = EXCLUDED.id,
                        received_at = EXCLUDED.received_at, uplink_id = EXCLUDED.uplink_id,
                        measured_at = EXCLUDED.measured_at, decoded_at = EXCLUDED.decoded_at,
                        schema_version = EXCLUDED.schema_version, measurements = EXCLUDED.measurements,
                        attributes = EXCLUDED.attributes, measured_ns = EXCLUDED.measured_ns,
                        received_ns = EXCLUDED.received_ns, decoded_ns = EXCLUDED.decoded_ns
                    WHERE (devices.received_at, devices.measured_at, devices.id)
                        < (EXCLUDED.received_at, EXCLUDED.measured_at, EXCLUDED.id)""".formatted(DEVICE_COLUMNS, RECORD),
                    new MapSqlParameterSource("rows", rows(newest.values().stream().map(u -> new Stored<>(u, null)).toList())));
        }
        return conflicts;
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
