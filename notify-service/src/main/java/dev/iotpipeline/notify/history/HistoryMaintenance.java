package dev.iotpipeline.notify.history;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps the partitioned history in shape: one partition per UTC day created ahead of the data, whole days
 * dropped once older than the retention, cleared alarms deleted after theirs. Several notify instances may run
 * it at once: a transaction-scoped advisory lock lets one do the work and the others skip.
 */
public class HistoryMaintenance {

    /** What one run did, for the log and for tests. */
    public record Run(
            List<String> created,
            List<String> dropped,
            long defaultRowsDeleted,
            long alarmsDeleted,
            boolean skipped,
            List<String> compacted) {

        Run withCompacted(List<String> partitions) {
            return new Run(created, dropped, defaultRowsDeleted, alarmsDeleted, skipped, partitions);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(HistoryMaintenance.class);
    private static final String PREFIX = "data_units_p";
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");
    private static final long LOCK = 0x1075_4157_0001L;
    private static final long COMPACT_LOCK = 0x1075_4157_0002L;
    private static final int COMPACT_PER_RUN = 2;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final Duration retention;
    private final Duration alarmRetention;
    private final int daysAhead;
    private final Clock clock;

    public HistoryMaintenance(
            JdbcTemplate jdbc,
            TransactionTemplate transactions,
            Duration retention,
            Duration alarmRetention,
            int daysAhead,
            Clock clock) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.retention = retention;
        this.alarmRetention = alarmRetention;
        this.daysAhead = daysAhead;
        this.clock = clock;
    }

    /** Creates missing partitions from today to {@code daysAhead} days ahead, then applies both retentions. */
    public Run run() {
        var run = transactions.execute(status -> {
            if (!Boolean.TRUE.equals(jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class, LOCK))) {
                return new Run(List.of(), List.of(), 0, 0, true, List.of());
            }
            var now = clock.instant();
            var today = LocalDate.ofInstant(now, ZoneOffset.UTC);
            var existing = partitions();
            var created = new ArrayList<String>();
            for (var day = today; !day.isAfter(today.plusDays(daysAhead)); day = day.plusDays(1)) {
                if (!existing.contains(name(day))) {
                    create(day);
                    created.add(name(day));
                }
            }
            var dropped = new ArrayList<String>();
            long defaultRows = 0;
            if (!retention.isZero()) {
                var cutoff = now.minus(retention);
                for (var partition : existing) {
                    var day = day(partition);
                    if (day.isPresent() && !start(day.get().plusDays(1)).isAfter(cutoff)) {
                        jdbc.execute("DROP TABLE " + partition);
                        dropped.add(partition);
                    }
                }
                defaultRows =
                        jdbc.update("DELETE FROM data_units_default WHERE received_at < ?", Timestamp.from(cutoff));
                jdbc.update("DELETE FROM devices WHERE received_at < ?", Timestamp.from(cutoff));
            }
            long alarms = alarmRetention.isZero()
                    ? 0
                    : jdbc.update(
                            "DELETE FROM alarms WHERE state = 'CLEARED' AND updated_at < ?",
                            Timestamp.from(now.minus(alarmRetention)));
            return new Run(List.copyOf(created), List.copyOf(dropped), defaultRows, alarms, false, List.of());
        });
        if (run != null && !run.skipped()) {
            run = run.withCompacted(compactFinishedDays());
        }
        if (run != null
                && (!run.created().isEmpty()
                        || !run.dropped().isEmpty()
                        || run.defaultRowsDeleted() > 0
                        || run.alarmsDeleted() > 0
                        || !run.compacted().isEmpty())) {
            log.info(
                    "History maintenance: created {}, dropped {} (retention {}), {} late rows and {} cleared alarms "
                            + "deleted, reindexed {}",
                    run.created(),
                    run.dropped(),
                    retention,
                    run.defaultRowsDeleted(),
                    run.alarmsDeleted(),
                    run.compacted());
        }
        return run;
    }

    /**
     * Rebuilds the indexes of days that no longer change (two days old and more), {@value #COMPACT_PER_RUN} per run,
     * once each. Rows of several channels and devices arrive interleaved, so their index pages split half-empty
     * while the day fills; rebuilt, the two indexes take ~30 % less (docs/benchmarks/history.md). CONCURRENTLY
     * keeps the day readable and writable meanwhile; a session lock keeps two instances off the same work.
     */
    List<String> compactFinishedDays() {
        var lastFinished = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(2);
        return jdbc.execute((ConnectionCallback<List<String>>) connection -> {
            var done = new ArrayList<String>();
            try (var statement = connection.createStatement()) {
                try (var lock = statement.executeQuery("SELECT pg_try_advisory_lock(" + COMPACT_LOCK + ")")) {
                    if (!lock.next() || !lock.getBoolean(1)) {
                        return done;
                    }
                }
                try {
                    var candidates = new ArrayList<String>();
                    try (var rows = statement.executeQuery("""
                            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                            WHERE i.inhparent = 'data_units'::regclass AND c.relname LIKE 'data\\_units\\_p%'
                              AND obj_description(c.oid, 'pg_class') IS DISTINCT FROM 'compacted'
                            ORDER BY c.relname""")) {
                        while (rows.next()) {
                            candidates.add(rows.getString(1));
                        }
                    }
                    for (var partition : candidates) {
                        var day = day(partition);
                        if (done.size() == COMPACT_PER_RUN
                                || day.isEmpty()
                                || day.get().isAfter(lastFinished)) {
                            break;
                        }
                        statement.execute("REINDEX TABLE CONCURRENTLY " + partition);
                        statement.execute("COMMENT ON TABLE " + partition + " IS 'compacted'");
                        done.add(partition);
                    }
                } finally {
                    statement.execute("SELECT pg_advisory_unlock(" + COMPACT_LOCK + ")");
                }
            }
            return done;
        });
    }

    /** The daily partitions that exist, oldest first. */
    List<String> partitions() {
        return jdbc.queryForList("""
                SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'data_units'::regclass AND c.relname LIKE 'data\\_units\\_p%' ORDER BY c.relname""", String.class);
    }

    /**
     * A day's partition. Rows of that day already in the default partition (received before the day's
     * partition existed) move into it, since PostgreSQL refuses a partition whose rows sit in the default one.
     */
    private void create(LocalDate day) {
        var from = Timestamp.from(start(day));
        var to = Timestamp.from(start(day.plusDays(1)));
        var bounds = "FOR VALUES FROM ('%s') TO ('%s')".formatted(start(day), start(day.plusDays(1)));
        Integer waiting = jdbc.queryForObject(
                "SELECT count(*) FROM data_units_default WHERE received_at >= ? " + "AND received_at < ?",
                Integer.class,
                from,
                to);
        if (waiting == null || waiting == 0) {
            jdbc.execute("CREATE TABLE " + name(day) + " PARTITION OF data_units " + bounds);
            return;
        }
        jdbc.execute("CREATE TABLE " + name(day) + " (LIKE data_units INCLUDING DEFAULTS INCLUDING CONSTRAINTS)");
        jdbc.update(
                "WITH moved AS (DELETE FROM data_units_default WHERE received_at >= ? AND received_at < ? "
                        + "RETURNING *) INSERT INTO " + name(day) + " SELECT * FROM moved",
                from,
                to);
        jdbc.execute("ALTER TABLE data_units ATTACH PARTITION " + name(day) + " " + bounds);
        log.info("Moved {} rows received on {} from the default partition into {}", waiting, day, name(day));
    }

    static String name(LocalDate day) {
        return PREFIX + DAY.format(day);
    }

    static Optional<LocalDate> day(String partition) {
        try {
            return Optional.of(LocalDate.parse(partition.substring(PREFIX.length()), DAY));
        } catch (RuntimeException notOurs) {
            return Optional.empty();
        }
    }

    private static Instant start(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
