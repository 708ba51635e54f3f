package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.notify.history.HistoryStore.Stored;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.ConnectionCallback;
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
     * The stored copies of a batch's ids within the retry window of its first and last receipt: a scan of the
     * primary key per id and partition (the ids are the key's first column), filtered per row afterwards.
     */
    private static final String STORED_COPIES = """
            SELECT id, received_at, uplink_digest FROM data_units
            WHERE id = ANY(CAST(:ids AS uuid[]))
              AND received_at BETWEEN CAST(:from AS timestamptz) - CAST(:window AS interval)
                                  AND CAST(:to AS timestamptz) + CAST(:window AS interval)""";

    /** The new rows, in PostgreSQL's COPY text format (what {@link #copyRows} writes). */
    private static final String COPY_HISTORY = "COPY data_units (" + INSERT_COLUMNS + ") FROM STDIN";

    /** Where {@link #write} goes back to when its copy meets a row another writer committed meanwhile. */
    private static final String SAVEPOINT = "history_copy";

    /** How often a batch is tried again after another writer committed one of its rows between probe and copy. */
    private static final int COPY_ATTEMPTS = 3;

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
            // The savepoint (for a copy that meets another writer's row) goes in the same round trip and is never
            // released: the commit ends it.
            jdbc.getJdbcTemplate().execute("SET LOCAL enable_seqscan = off; SAVEPOINT " + SAVEPOINT);
            return write(units);
        });
    }

    /** See {@link HistoryStore#moveLatest}. */
    void moveLatest(Collection<DataUnit> units) {
        if (!units.isEmpty()) {
            jdbc.update(UPSERT_NEWEST, new MapSqlParameterSource("rows", newestRows(units)));
        }
    }

    /**
     * Looks up which of the batch's ids are stored, then copies the rest in: COPY costs PostgreSQL about half of
     * what one INSERT parsing the batch as JSON and probing row by row did (16 against 26 µs a row,
     * docs/benchmarks/raw/experiments/history-copy.md). A copy that meets a row another writer committed since the
     * lookup (a zombie instance during a rebalance) is undone to its savepoint and the batch looked up again.
     *
     * <p>A batch whose uplink ids ingest minted, every one, is copied without the lookup (about a quarter of
     * PostgreSQL's work on a row): a copy of such a unit can only be a replay, with the stored row's whole key,
     * which the copy meets as a duplicate key; then the batch takes the lookup's way.
     */
    private List<Stored<DataUnit>> write(List<Stored<DataUnit>> units) {
        var first = new LinkedHashMap<UUID, Stored<DataUnit>>();
        units.forEach(stored -> first.putIfAbsent(stored.event().id(), stored));
        // Attempt 0, for a batch of minted ids only, copies without looking up.
        for (int attempt = units.stream().allMatch(Stored::mintedId) ? 0 : 1; ; attempt++) {
            var copies = attempt == 0 ? Map.<UUID, List<Copy>>of() : storedCopies(first.values());
            // The digests each id has in the store once this batch is written: its stored copies' within the retry
            // window of the first copy here, or else that first copy's own, which is then written.
            var known = new HashMap<UUID, Set<Long>>();
            var fresh = new ArrayList<Stored<DataUnit>>();
            for (var stored : first.values()) {
                var digests = withinWindow(copies.get(stored.event().id()), stored.event());
                if (digests == null) {
                    fresh.add(stored);
                    digests = stored.uplinkDigest() == null ? Set.of() : Set.of(stored.uplinkDigest());
                }
                known.put(stored.event().id(), digests);
            }
            if (!fresh.isEmpty()) {
                try {
                    copy(fresh);
                } catch (DuplicateKeyException stored) {
                    jdbc.getJdbcTemplate().execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT);
                    if (attempt == COPY_ATTEMPTS) {
                        // Transient: the batch is tried again later, never dead-lettered for rows that are stored.
                        throw new ConcurrencyFailureException(
                                "history rows kept being written by another writer while this one copied them", stored);
                    }
                    continue;
                }
            }
            return conflicts(units, known);
        }
    }

    /** A stored copy of a data unit: when it was received (to the microsecond) and its uplink's digest. */
    private record Copy(Instant receivedAt, Long digest) {}

    /** The stored copies of the units' ids received within the retry window of any of them, by id. */
    private Map<UUID, List<Copy>> storedCopies(Collection<Stored<DataUnit>> units) {
        var ids = new StringBuilder(units.size() * 37 + 2).append('{');
        Instant from = null;
        Instant to = null;
        for (var stored : units) {
            var unit = stored.event();
            ids.append(ids.length() > 1 ? "," : "").append(unit.id());
            from = from == null || unit.receivedAt().isBefore(from) ? unit.receivedAt() : from;
            to = to == null || unit.receivedAt().isAfter(to) ? unit.receivedAt() : to;
        }
        var copies = new HashMap<UUID, List<Copy>>();
        jdbc.query(
                STORED_COPIES,
                new MapSqlParameterSource("ids", ids.append('}').toString())
                        .addValue("from", micros(from))
                        .addValue("to", micros(to))
                        .addValue("window", RETRY_WINDOW),
                row -> {
                    var digest = row.getObject(3);
                    copies.computeIfAbsent(row.getObject(1, UUID.class), id -> new ArrayList<>(1))
                            .add(new Copy(
                                    row.getObject(2, OffsetDateTime.class).toInstant(),
                                    digest == null ? null : ((Number) digest).longValue()));
                });
        return copies;
    }

    /**
     * The digests of the copies received within the retry window of the unit's receipt, or null when there is none
     * (a copy without a digest, written before digests, adds nothing but still counts as stored).
     */
    private static Set<Long> withinWindow(List<Copy> copies, DataUnit unit) {
        if (copies == null) {
            return null;
        }
        var received = unit.receivedAt().truncatedTo(ChronoUnit.MICROS);
        Set<Long> digests = null;
        for (var copy : copies) {
            if (Duration.between(copy.receivedAt(), received).abs().compareTo(HistoryStore.RETRY_WINDOW) <= 0) {
                digests = digests == null ? new HashSet<>() : digests;
                if (copy.digest() != null) {
                    digests.add(copy.digest());
                }
            }
        }
        return digests;
    }

    /**
     * The units whose id is stored with digests none of which is their own (a row without a digest, written
     * before digests, conflicts with nothing), in order.
     */
    private static List<Stored<DataUnit>> conflicts(List<Stored<DataUnit>> units, Map<UUID, Set<Long>> known) {
        var conflicts = new ArrayList<Stored<DataUnit>>();
        for (var stored : units) {
            var digests = known.getOrDefault(stored.event().id(), Set.of());
            if (stored.uplinkDigest() != null && !digests.isEmpty() && !digests.contains(stored.uplinkDigest())) {
                conflicts.add(stored);
            }
        }
        return conflicts;
    }

    /** Copies the rows into the history in one COPY on the transaction's connection. */
    private void copy(List<Stored<DataUnit>> rows) {
        var text = copyRows(rows).getBytes(StandardCharsets.UTF_8);
        jdbc.getJdbcTemplate().execute((ConnectionCallback<Long>) connection -> {
            try {
                return connection
                        .unwrap(PGConnection.class)
                        .getCopyAPI()
                        .copyIn(COPY_HISTORY, new ByteArrayInputStream(text));
            } catch (IOException e) {
                throw new SQLException("COPY of " + rows.size() + " history rows failed", e);
            }
        });
    }

    /**
     * The rows as COPY's text format reads them, the columns of {@link #INSERT_COLUMNS} in order: times in
     * microseconds (what PostgreSQL keeps) with the nanoseconds beyond apart, {@code \N} for null.
     */
    private static String copyRows(Collection<Stored<DataUnit>> rows) {
        var out = new StringBuilder(rows.size() * 400);
        for (var stored : rows) {
            var unit = stored.event();
            out.append(unit.id()).append('\t');
            time(out, unit.receivedAt());
            field(out, unit.uplinkId() == null ? null : unit.uplinkId().toString());
            time(out, unit.measuredAt());
            time(out, unit.decodedAt());
            out.append(unit.schemaVersion()).append('\t');
            field(out, unit.channel());
            field(out, unit.deviceType());
            field(out, unit.deviceId());
            field(out, EventJson.mapper().writeValueAsString(unit.measurements()));
            field(out, unit.attributes().isEmpty() ? null : EventJson.mapper().writeValueAsString(unit.attributes()));
            field(out, nanos(unit.measuredAt()));
            field(out, nanos(unit.receivedAt()));
            field(out, nanos(unit.decodedAt()));
            out.append(
                            stored.uplinkDigest() == null
                                    ? "\\N"
                                    : stored.uplinkDigest().toString())
                    .append('\n');
        }
        return out.toString();
    }

    private static void time(StringBuilder out, Instant instant) {
        field(out, instant == null ? null : micros(instant));
    }

    /** A column followed by its tab: backslash, tab and line breaks escaped as COPY's text format wants them. */
    private static void field(StringBuilder out, String value) {
        if (value == null) {
            out.append("\\N\t");
            return;
        }
        int first = 0;
        while (first < value.length() && !needsEscape(value.charAt(first))) {
            first++;
        }
        // Nearly every value has nothing to escape: copied in one piece, not a character at a time.
        out.append(value, 0, first);
        for (int i = first; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        out.append('\t');
    }

    private static boolean needsEscape(char c) {
        return c == '\\' || c == '\t' || c == '\n' || c == '\r';
    }

    private static String micros(Instant instant) {
        return EventJson.instantText(instant.truncatedTo(ChronoUnit.MICROS));
    }

    private static String nanos(Instant instant) {
        return instant != null && instant.getNano() % 1000 != 0 ? Integer.toString(instant.getNano() % 1000) : null;
    }

    /** One row per device, its newest of {@code units}, devices in key order so two writers never deadlock. */
    private static String newestRows(Collection<DataUnit> units) {
        return rows(LatestReadings.newestPerDevice(units).values());
    }

    /**
     * A JSON array of the rows: times in microseconds (what PostgreSQL keeps) with the nanoseconds beyond apart;
     * written as a stream, absent values left out (jsonb_to_recordset reads them as NULL).
     */
    private static String rows(Collection<DataUnit> units) {
        var out = new StringWriter(units.size() * 512);
        try (var json = EventJson.mapper().createGenerator(out)) {
            json.writeStartArray();
            for (var unit : units) {
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
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        return out.toString();
    }

    private static void micros(JsonGenerator json, String name, Instant instant) {
        if (instant != null) {
            json.writeStringProperty(name, micros(instant));
        }
    }

    private static void nanos(JsonGenerator json, String name, Instant instant) {
        if (instant != null && instant.getNano() % 1000 != 0) {
            json.writeNumberProperty(name, instant.getNano() % 1000);
        }
    }
}
