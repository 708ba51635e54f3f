package dev.iotpipeline.localstack;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.notify.history.DataUnitQuery;
import dev.iotpipeline.notify.history.HistoryMaintenance;
import dev.iotpipeline.notify.history.HistoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The history benchmark of issue 15, run by {@code bench/history.sh}; a benchmark, not a test: it asserts nothing.
 * It starts a durable embedded PostgreSQL of its own, migrates it with Flyway, generates {@code ROWS} data units
 * shaped as the pipeline stores them (set-based SQL, one statement per day, in time order as the writer inserts
 * them), then times notify's {@link HistoryStore} queries, the store writer under query load, the bytes per data
 * unit and the retention of a day, and writes a Markdown report.
 *
 * <p>Environment: {@code ROWS} (10,000,000), {@code DAYS} (ROWS / 1,000,000, at least 1), {@code HISTORY_BENCH_DIR}
 * (/tmp/iot-history-bench), {@code SAMPLES} (100), {@code WRITER_SECONDS} (30), {@code HISTORY_BENCH_REPORT} (where the
 * Markdown goes; stdout when unset), {@code REUSE=1} (keep the data of an earlier run of the same size).
 */
public final class HistoryBenchmark {

    private static final int DEVICES = 10_000;
    private static final int CHANNELS = 10;
    private static final int PAGE = 100;

    private final long rows;
    private final int days;
    private final int samples;
    private final int writerSeconds;
    private final Path dir;
    private final int port;
    private final LocalDate today = LocalDate.now(ZoneOffset.UTC);
    private final LocalDate firstDay;
    private final StringBuilder report = new StringBuilder();
    private Postgres postgres;

    private HistoryBenchmark() {
        rows = Long.parseLong(env("ROWS", "10000000"));
        days = Integer.parseInt(env("DAYS", Long.toString(Math.max(1, rows / 1_000_000))));
        samples = Integer.parseInt(env("SAMPLES", "100"));
        writerSeconds = Integer.parseInt(env("WRITER_SECONDS", "30"));
        dir = Path.of(env("HISTORY_BENCH_DIR", "/tmp/iot-history-bench")).resolve("pg-" + rows);
        port = EmbeddedStack.freePort();
        firstDay = today.minusDays(days);
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        var bench = new HistoryBenchmark();
        try {
            bench.run();
        } finally {
            if (bench.postgres != null) {
                bench.postgres.close();
            }
        }
        var out = System.getenv("HISTORY_BENCH_REPORT");
        if (out == null || out.isBlank()) {
            System.out.print(bench.report);
        } else {
            Files.writeString(Path.of(out), bench.report);
        }
    }

    private void run() throws Exception {
        boolean reuse = "1".equals(System.getenv("REUSE")) && Files.exists(dir.resolve("PG_VERSION"));
        if (!reuse && Files.exists(dir)) {
            deleteTree(dir);
        }
        postgres = Postgres.start(dir, port, true);
        var admin = connect();
        var jdbc = new JdbcTemplate(admin);
        Flyway.configure()
                .dataSource(admin)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        jdbc.execute("CREATE TABLE IF NOT EXISTS bench_meta (rows bigint, days int, first_day date, seconds float8,"
                + " compact_seconds float8)");
        var meta = jdbc.queryForList("SELECT rows, days, first_day, seconds, compact_seconds FROM bench_meta");
        double generationSeconds;
        LocalDate dataFirstDay;
        if (reuse && !meta.isEmpty() && ((Number) meta.getFirst().get("rows")).longValue() == rows) {
            generationSeconds = ((Number) meta.getFirst().get("seconds")).doubleValue();
            compactSeconds = ((Number) meta.getFirst().get("compact_seconds")).doubleValue();
            dataFirstDay = ((java.sql.Date) meta.getFirst().get("first_day")).toLocalDate();
            progress("Reusing the %,d rows generated earlier", rows);
        } else {
            generationSeconds = generate(jdbc);
            dataFirstDay = firstDay;
            jdbc.update(
                    "INSERT INTO bench_meta VALUES (?, ?, ?, ?, ?)",
                    rows,
                    days,
                    java.sql.Date.valueOf(firstDay),
                    generationSeconds,
                    compactSeconds);
        }
        if (!dataFirstDay.equals(firstDay)) {
            throw new IllegalStateException("The reused data starts on " + dataFirstDay + ", not " + firstDay
                    + " (generated on another day): run without REUSE");
        }
        long perDay = rows / days;
        var version = jdbc.queryForObject("SELECT version()", String.class);
        var settings = jdbc.queryForList("SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers',"
                + " 'work_mem', 'max_wal_size', 'fsync', 'synchronous_commit', 'full_page_writes', 'jit', "
                + "'effective_cache_size', 'random_page_cost') ORDER BY name");
        var sizes = sizes(jdbc);
        long inDefault = jdbc.queryForObject("SELECT count(*) FROM data_units_default", Long.class);
        long compactedDays = jdbc.queryForObject("""
                SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'data_units'::regclass AND obj_description(c.oid, 'pg_class') = 'compacted'""", Long.class);
        admin.destroy();

        line(
                "Data: %,d data units (%,d a day over the %d UTC days %s to %s, in %d daily partitions), %,d devices in %d"
                        + " channels (%s), device types em300th (temperature, humidity, battery) and am307 (plus co2), ids"
                        + " UUIDv7-shaped from the received_at millisecond, measured_at 1-5 s before received_at; %,d rows in"
                        + " the default partition.",
                perDay * days,
                perDay,
                days,
                firstDay,
                today.minusDays(1),
                days,
                DEVICES,
                CHANNELS,
                "ch-0 … ch-9, 1,000 devices each, every device every " + 86_400 * DEVICES / perDay + " s",
                inDefault);
        line("");
        line(
                "Generated with set-based SQL, one INSERT … SELECT generate_series per day in received_at order (so the"
                        + " indexes grow as the store writer grows them), then the devices table from the last day, then"
                        + " VACUUM ANALYZE: %.0f s, %,.0f rows/s%s. After each day, `HistoryMaintenance.run()` with a clock"
                        + " two days later (at most today), as a service running then would have: it rebuilt the indexes of"
                        + " the days two days old and more (REINDEX CONCURRENTLY, %.0f s of the total): %d of the %d days are"
                        + " rebuilt, yesterday is as the inserts left it.",
                generationSeconds,
                perDay * days / generationSeconds,
                reuse ? " (an earlier run; REUSE=1)" : "",
                compactSeconds,
                compactedDays,
                days);
        line("");
        line(
                "PostgreSQL: %s; %s. During generation only, max_wal_size was raised to 8GB (then reset); everything"
                        + " measured runs on the settings listed.",
                version.replaceAll(" on .*", ""),
                settings.stream()
                        .map(s -> s.get("name") + "=" + s.get("setting")
                                + (s.get("unit") == null ? "" : " " + s.get("unit")))
                        .reduce((a, b) -> a + ", " + b)
                        .orElse(""));
        line("");
        sizesSection(sizes, perDay * days);

        // Cold-ish: a restarted server (empty shared buffers, fresh plan caches); the OS page cache is not dropped.
        progress("Restarting PostgreSQL for the cold pass");
        postgres.close();
        postgres = Postgres.start(dir, port, true);
        var queries = queries(perDay);
        querySection(queries);

        writerSection(queries);

        explainSection();
    }

    // ---------------------------------------------------------------- generation

    private double compactSeconds;

    private double generate(JdbcTemplate jdbc) {
        long perDay = rows / days;
        long start = System.nanoTime();
        jdbc.execute("ALTER SYSTEM SET max_wal_size = '8GB'");
        jdbc.queryForObject("SELECT pg_reload_conf()", Boolean.class);
        // Every day from the oldest to a few ahead, as a service running since the oldest day would have made them.
        var created = maintenance(jdbc, Clock.fixed(start(firstDay), ZoneOffset.UTC), Duration.ZERO, days + 3)
                .run();
        progress(
                "Created %d partitions (%s … %s)",
                created.created().size(),
                created.created().getFirst(),
                created.created().getLast());
        long stepMicros = 86_400_000_000L / perDay;
        for (int d = 0; d < days; d++) {
            var day = firstDay.plusDays(d);
            long t0 = System.nanoTime();
            // received_at evenly spread over the day; device g % 10,000 so every device reports at a steady rate.
            jdbc.update("""
                    INSERT INTO data_units (id, received_at, uplink_id, measured_at, decoded_at, schema_version, channel,
                                            device_type, device_id, measurements, attributes)
                    SELECT encode(overlay(set_byte(uuid_send(gen_random_uuid()), 6, (112 + g % 16)::int)
                                  PLACING substring(int8send(ms) FROM 3 FOR 6) FROM 1 FOR 6), 'hex')::uuid,
                           at,
                           encode(overlay(set_byte(uuid_send(gen_random_uuid()), 6, (112 + g % 13)::int)
                                  PLACING substring(int8send(ms) FROM 3 FOR 6) FROM 1 FOR 6), 'hex')::uuid,
                           at - make_interval(secs => 1 + (g % 5)),
                           at + interval '35 milliseconds',
                           1::smallint,
                           'ch-' || (dev % 10),
                           CASE WHEN dev % 4 = 0 THEN 'am307' ELSE 'em300th' END,
                           'dev-' || lpad(dev::text, 5, '0'),
                           CASE WHEN dev % 4 = 0 THEN
                               jsonb_build_object('temperature', round((15 + random() * 15)::numeric, 1),
                                                  'humidity', round((30 + random() * 40)::numeric, 1),
                                                  'co2', round((400 + random() * 800)::numeric, 0),
                                                  'battery', round((3.0 + random() * 0.6)::numeric, 2))
                           ELSE
                               jsonb_build_object('temperature', round((15 + random() * 15)::numeric, 1),
                                                  'humidity', round((30 + random() * 40)::numeric, 1),
                                                  'battery', round((3.0 + random() * 0.6)::numeric, 2))
                           END,
                           NULL::jsonb
                    FROM (SELECT g, dev, at, floor(extract(epoch FROM at) * 1000)::bigint AS ms
                          FROM (SELECT g, g % 10000 AS dev,
                                       CAST(? AS timestamptz) + g * CAST(? AS bigint) * interval '1 microsecond' AS at
                                FROM generate_series(CAST(0 AS bigint), CAST(? AS bigint) - 1) g) t) r""", Timestamp.from(start(day)), stepMicros, perDay);
            double s = (System.nanoTime() - t0) / 1e9;
            // Maintenance as a service running on day d + 2 would have run it: it rebuilds the indexes of the days
            // that no longer change (two days old and more), so yesterday and the day before stay as written.
            var clock = day.plusDays(2).isAfter(today) ? today : day.plusDays(2);
            long c0 = System.nanoTime();
            var compacted = maintenance(jdbc, Clock.fixed(start(clock), ZoneOffset.UTC), Duration.ZERO, 3)
                    .run()
                    .compacted();
            double cs = (System.nanoTime() - c0) / 1e9;
            compactSeconds += cs;
            double all = (System.nanoTime() - start) / 1e9;
            long done = perDay * (d + 1);
            progress(
                    "Day %d/%d (%s): %,d rows in %.1f s (%,.0f rows/s), reindexed %s in %.1f s; %,d in all at %,.0f"
                            + " rows/s, %.0f s to go",
                    d + 1,
                    days,
                    day,
                    perDay,
                    s,
                    perDay / s,
                    compacted,
                    cs,
                    done,
                    done / all,
                    (rows - done) / (done / all));
        }
        jdbc.update("""
                INSERT INTO devices
                SELECT DISTINCT ON (channel, device_id) channel, device_id, device_type, id, received_at, uplink_id,
                       measured_at, decoded_at, schema_version, measurements, attributes
                FROM data_units WHERE received_at >= ?
                ORDER BY channel, device_id, received_at DESC, measured_at DESC, id DESC""", Timestamp.from(start(today.minusDays(Math.min(days, 2)))));
        progress("Devices filled; VACUUM ANALYZE");
        jdbc.execute("VACUUM ANALYZE data_units");
        jdbc.execute("VACUUM ANALYZE devices");
        jdbc.execute("ALTER SYSTEM RESET max_wal_size");
        jdbc.queryForObject("SELECT pg_reload_conf()", Boolean.class);
        jdbc.execute("CHECKPOINT");
        double seconds = (System.nanoTime() - start) / 1e9;
        progress(
                "Generated %,d rows in %.0f s (%,.0f rows/s with VACUUM ANALYZE)",
                perDay * days, seconds, perDay * days / seconds);
        return seconds;
    }

    // ---------------------------------------------------------------- sizes

    private record Sizes(
            long heap, long indexes, Map<String, Long> perIndex, long devicesHeap, long devicesIndexes, long devices) {}

    private Sizes sizes(JdbcTemplate jdbc) {
        var heap = jdbc.queryForObject("""
                SELECT sum(pg_table_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'data_units'::regclass""", Long.class);
        var indexes = jdbc.queryForObject("""
                SELECT sum(pg_indexes_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'data_units'::regclass""", Long.class);
        var perIndex = new LinkedHashMap<String, Long>();
        jdbc.query("""
                SELECT p.relname, sum(pg_relation_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                JOIN pg_class p ON p.oid = i.inhparent
                WHERE p.relkind = 'I' AND p.relname IN (SELECT indexrelid::regclass::text FROM pg_index
                                                        WHERE indrelid = 'data_units'::regclass)
                GROUP BY p.relname ORDER BY p.relname""", rs -> {
            perIndex.put(rs.getString(1), rs.getLong(2));
        });
        return new Sizes(
                heap,
                indexes,
                perIndex,
                jdbc.queryForObject("SELECT pg_table_size('devices')", Long.class),
                jdbc.queryForObject("SELECT pg_indexes_size('devices')", Long.class),
                jdbc.queryForObject("SELECT count(*) FROM devices", Long.class));
    }

    private double bytesPerUnit = Double.NaN;

    private void sizesSection(Sizes s, long units) {
        bytesPerUnit = (double) (s.heap() + s.indexes()) / units;
        line("## Bytes per data unit");
        line("");
        line("| relation | size | bytes per data unit |");
        line("|---|---:|---:|");
        line(
                "| data_units partitions: heap (with TOAST, FSM, VM) | %s | %.0f |",
                mb(s.heap()), (double) s.heap() / units);
        for (var index : s.perIndex().entrySet()) {
            line("| index %s | %s | %.0f |", index.getKey(), mb(index.getValue()), (double) index.getValue() / units);
        }
        line("| **data_units with its indexes** | **%s** | **%.0f** |", mb(s.heap() + s.indexes()), bytesPerUnit);
        line(
                "| devices (%,d rows): heap / indexes | %s / %s | %.0f per device |",
                s.devices(),
                mb(s.devicesHeap()),
                mb(s.devicesIndexes()),
                (double) (s.devicesHeap() + s.devicesIndexes()) / Math.max(1, s.devices()));
        line("");
    }

    // ---------------------------------------------------------------- queries

    /** One timed query: its name, its target p95 in ms, and the call, given a random source of parameters. */
    private record Query(String name, double targetMs, Function<Params, Object> call) {}

    /** The random choices of one sample: a device (and its channel), a day, a week, an existing id. */
    private record Params(HistoryStore store, int device, LocalDate day, LocalDate week, UUID id) {
        String channel() {
            return "ch-" + device % CHANNELS;
        }

        String deviceId() {
            return "dev-%05d".formatted(device);
        }
    }

    private List<UUID> sampleIds;

    private List<Query> queries(long perDay) {
        var jdbc = new JdbcTemplate(connect());
        double percent = Math.min(100, 100.0 * 20_000 / rows);
        sampleIds = jdbc.queryForList(
                "SELECT id FROM data_units TABLESAMPLE SYSTEM (" + percent + ") ORDER BY random()" + " LIMIT 1000",
                UUID.class);
        ((SingleConnectionDataSource) jdbc.getDataSource()).destroy();
        var week = Duration.ofDays(7);
        return List.of(
                new Query(
                        "one device, first page newest first (limit 100)",
                        50,
                        p -> p.store()
                                .page(
                                        new DataUnitQuery(null, p.channel(), null, p.deviceId(), null, null),
                                        null,
                                        PAGE,
                                        true)),
                new Query(
                        "one device, one day (from/to, limit 1000)",
                        50,
                        p -> p.store()
                                .page(
                                        new DataUnitQuery(
                                                null,
                                                p.channel(),
                                                null,
                                                p.deviceId(),
                                                start(p.day()),
                                                start(p.day().plusDays(1))),
                                        null,
                                        1000,
                                        false)),
                new Query(
                        "a channel, one day (from/to, limit 100)",
                        50,
                        p -> p.store()
                                .page(
                                        new DataUnitQuery(
                                                null,
                                                p.channel(),
                                                null,
                                                null,
                                                start(p.day()),
                                                start(p.day().plusDays(1))),
                                        null,
                                        PAGE,
                                        false)),
                new Query(
                        "a channel, newest first, no range (limit 100)",
                        50,
                        p -> p.store()
                                .page(new DataUnitQuery(null, p.channel(), null, null, null, null), null, PAGE, true)),
                new Query(
                        "exact count of a channel, one day (" + String.format("%,d", perDay / CHANNELS) + " rows)",
                        50,
                        p -> p.store()
                                .count(new DataUnitQuery(
                                        null,
                                        p.channel(),
                                        null,
                                        null,
                                        start(p.day()),
                                        start(p.day().plusDays(1))))),
                new Query(
                        "estimated count of a channel (estimateCount)",
                        50,
                        p -> p.store().estimateCount(new DataUnitQuery(null, p.channel(), null, null, null, null))),
                new Query(
                        "latest per device of a channel (devices, limit 100)",
                        50,
                        p -> p.store().devices(new DataUnitQuery(null, p.channel(), null, null, null, null), PAGE)),
                new Query(
                        "aggregate: one device, a random week, hourly avg/min/max/count",
                        100,
                        p -> p.store()
                                .aggregate(
                                        new DataUnitQuery(null, p.channel(), null, p.deviceId(), null, null),
                                        "temperature",
                                        start(p.week()),
                                        start(p.week()).plus(week),
                                        Duration.ofHours(1))),
                new Query(
                        "aggregate: one device, the last 7 days, hourly",
                        100,
                        p -> p.store()
                                .aggregate(
                                        new DataUnitQuery(null, p.channel(), null, p.deviceId(), null, null),
                                        "temperature",
                                        start(today.minusDays(7)),
                                        start(today),
                                        Duration.ofHours(1))),
                new Query("find by id", 50, p -> p.store().find(p.id())),
                // Same millisecond, other bits: not stored, so find looks around its time and then in every day.
                new Query(
                        "find by id, not stored",
                        50,
                        p -> p.store()
                                .find(new UUID(
                                        p.id().getMostSignificantBits(),
                                        p.id().getLeastSignificantBits() ^ 0x0000_FFFF_FFFF_FFFFL))));
    }

    private Params params(Random random, HistoryStore store) {
        int weeks = Math.max(1, days - 7 + 1);
        return new Params(
                store,
                random.nextInt(DEVICES),
                firstDay.plusDays(random.nextInt(days)),
                firstDay.plusDays(random.nextInt(weeks)),
                sampleIds.get(random.nextInt(sampleIds.size())));
    }

    private record Stats(double p50, double p95, double max, int n) {
        static Stats of(double[] ms) {
            var sorted = ms.clone();
            Arrays.sort(sorted);
            return new Stats(rank(sorted, 0.50), rank(sorted, 0.95), sorted[sorted.length - 1], sorted.length);
        }

        private static double rank(double[] sorted, double q) {
            return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
        }
    }

    private final Map<String, Stats> warm = new LinkedHashMap<>();
    private final Map<String, Stats> cold = new LinkedHashMap<>();

    private void querySection(List<Query> queries) {
        var ds = connect();
        var store = new HistoryStore(new NamedParameterJdbcTemplate(ds));
        // One unmeasured call of each, with parameters of its own, so the cold pass is not the JVM's warm-up.
        var jvm = new Random(1);
        for (var q : queries) {
            q.call().apply(params(jvm, store));
        }
        for (int qi = 0; qi < queries.size(); qi++) {
            var q = queries.get(qi);
            var random = new Random(100 + qi);
            var ps = new ArrayList<Params>();
            for (int i = 0; i < samples; i++) {
                ps.add(params(random, store));
            }
            cold.put(q.name(), Stats.of(time(q, ps)));
            warm.put(q.name(), Stats.of(time(q, ps)));
            progress(
                    "%s: cold p95 %.1f ms, warm p50 %.1f p95 %.1f ms",
                    q.name(),
                    cold.get(q.name()).p95(),
                    warm.get(q.name()).p50(),
                    warm.get(q.name()).p95());
        }
        ds.destroy();
        line("## Queries (ms, %d random devices / days / weeks / ids each, one at a time)", samples);
        line("");
        line("Cold-ish is the first pass over the samples right after a restart of PostgreSQL (empty shared buffers and"
                + " plan caches; the OS page cache is not dropped, so the files may still be in memory); warm is the"
                + " second pass over the same samples. Each call goes through `HistoryStore` over one JDBC connection,"
                + " as notify makes it (prepared statements; pgjdbc switches to server-side ones after 5 uses).");
        line("");
        line("| query | cold-ish p50 | cold-ish p95 | cold-ish max | warm p50 | warm p95 | warm max | target p95 |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (var q : queries) {
            var c = cold.get(q.name());
            var w = warm.get(q.name());
            line(
                    "| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | ≤ %.0f |",
                    q.name(), c.p50(), c.p95(), c.max(), w.p50(), w.p95(), w.max(), q.targetMs());
        }
        line("");
    }

    private static double[] time(Query q, List<Params> ps) {
        var ms = new double[ps.size()];
        for (int i = 0; i < ps.size(); i++) {
            long t0 = System.nanoTime();
            q.call().apply(ps.get(i));
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        return ms;
    }

    // ---------------------------------------------------------------- writer under query load, retention

    /** What one writer run measured. */
    private record WriterRun(
            long units, double seconds, Stats batches, long queries, Map<String, Stats> during, List<String> errors) {
        double rate() {
            return units / seconds;
        }
    }

    /**
     * The store writer for {@code seconds}: batches of 500 new data units on one thread and connection, with
     * {@code readers} threads looping over the queries meanwhile; {@code halfWay} runs on this thread half way through.
     */
    private WriterRun write(List<Query> queries, int seconds, int readers, Runnable halfWay) throws Exception {
        var stop = new AtomicBoolean();
        var stored = new AtomicLong();
        var batches = new ConcurrentLinkedQueue<Double>();
        var errors = new ConcurrentLinkedQueue<String>();
        var during = new ConcurrentHashMap<String, ConcurrentLinkedQueue<Double>>();
        var writerDs = connect();
        var writerStore = new HistoryStore(new NamedParameterJdbcTemplate(writerDs));
        var writer = Thread.ofPlatform().name("writer").start(() -> {
            var random = new Random(7);
            while (!stop.get()) {
                var batch = new ArrayList<HistoryStore.Stored<DataUnit>>(500);
                for (int i = 0; i < 500; i++) {
                    var unit = newUnit(random);
                    // With its uplink's digest, as every data unit of the decoder carries one.
                    batch.add(new HistoryStore.Stored<>(
                            unit, new String(EventJson.write(unit), StandardCharsets.UTF_8), random.nextLong()));
                }
                long t0 = System.nanoTime();
                try {
                    writerStore.storeDataUnits(batch);
                    stored.addAndGet(batch.size());
                    batches.add((System.nanoTime() - t0) / 1e6);
                } catch (RuntimeException e) {
                    errors.add("writer: " + e);
                }
            }
        });
        var threads = new ArrayList<Thread>();
        var readerSources = new ArrayList<SingleConnectionDataSource>();
        var queryCount = new AtomicLong();
        for (int t = 0; t < readers; t++) {
            var ds = connect();
            readerSources.add(ds);
            var store = new HistoryStore(new NamedParameterJdbcTemplate(ds));
            int seed = 1000 + t;
            threads.add(Thread.ofPlatform().name("queries-" + t).start(() -> {
                var random = new Random(seed);
                while (!stop.get()) {
                    for (var q : queries) {
                        if (stop.get()) {
                            break;
                        }
                        var p = params(random, store);
                        long t0 = System.nanoTime();
                        try {
                            q.call().apply(p);
                            during.computeIfAbsent(q.name(), k -> new ConcurrentLinkedQueue<>())
                                    .add((System.nanoTime() - t0) / 1e6);
                            queryCount.incrementAndGet();
                        } catch (RuntimeException e) {
                            errors.add(q.name() + ": " + e);
                        }
                    }
                }
            }));
        }
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 500L);
        if (halfWay != null) {
            halfWay.run();
        }
        Thread.sleep(Math.max(0, seconds * 1000L - (System.nanoTime() - t0) / 1_000_000));
        stop.set(true);
        writer.join();
        for (var r : threads) {
            r.join();
        }
        double elapsed = (System.nanoTime() - t0) / 1e9;
        writerDs.destroy();
        readerSources.forEach(SingleConnectionDataSource::destroy);
        var stats = new LinkedHashMap<String, Stats>();
        for (var q : queries) {
            var ms = during.get(q.name());
            if (ms != null && !ms.isEmpty()) {
                stats.put(
                        q.name(),
                        Stats.of(ms.stream().mapToDouble(Double::doubleValue).toArray()));
            }
        }
        var run = new WriterRun(
                stored.get(),
                elapsed,
                Stats.of(batches.stream().mapToDouble(Double::doubleValue).toArray()),
                queryCount.get(),
                stats,
                List.copyOf(errors));
        progress("Writer (%d query threads): %,d units in %.1f s = %,.0f/s", readers, run.units(), elapsed, run.rate());
        return run;
    }

    private void writerSection(List<Query> queries) throws Exception {
        var underLoad = new Retention[1];
        // Half way through, the oldest day goes, with the writer and the queries running.
        var main = write(queries, writerSeconds, 2, () -> {
            underLoad[0] = retention(firstDay);
            progress("Dropped %s under load in %.0f ms", underLoad[0].dropped(), underLoad[0].ms());
        });
        var alone = write(queries, Math.max(5, writerSeconds / 3), 0, null);
        writerRate = main.rate();

        // The next oldest day, with nothing else running.
        var idle = retention(firstDay.plusDays(1));
        progress("Dropped %s idle in %.0f ms", idle.dropped(), idle.ms());
        dropMs = Math.max(idle.ms(), underLoad[0].ms());

        line("## Store writer while queries run");
        line("");
        line("`HistoryStore.storeDataUnits` with batches of 500 new data units (received now, random devices of the"
                + " 10,000, so into today's partition) on one thread with its own connection, autocommit as in notify (one"
                + " INSERT … SELECT FROM jsonb_to_recordset per table per batch);"
                + " meanwhile 2 threads, each on its own connection, loop over the queries above with random"
                + " parameters; everything, PostgreSQL included, on the same 2 shared cores.");
        line("");
        line("| run | data units/s | units | batch of 500: p50 / p95 / max ms | queries meanwhile |");
        line("|---|---:|---:|---|---:|");
        writerRow("**with 2 query threads, %d s (the target's case)**".formatted(writerSeconds), main);
        writerRow("alone, no queries, %d s".formatted(Math.max(5, writerSeconds / 3)), alone);
        line("");
        var errors = new ArrayList<String>();
        errors.addAll(main.errors());
        errors.addAll(alone.errors());
        if (!errors.isEmpty()) {
            line(
                    "Errors: %d, first: %s",
                    errors.size(), errors.stream().limit(3).toList());
            line("");
        }
        line("Query latencies (ms) during the first run, the writer writing:");
        line("");
        line("| query during writes | n | p50 | p95 | max |");
        line("|---|---:|---:|---:|---:|");
        for (var e : main.during().entrySet()) {
            var s = e.getValue();
            line("| %s | %d | %.1f | %.1f | %.1f |", e.getKey(), s.n(), s.p50(), s.p95(), s.max());
        }
        line("");
        line("## Retention of one day");
        line("");
        line(
                "`HistoryMaintenance.run()` with a fixed clock and a retention that makes exactly the oldest day's partition"
                        + " (%,d rows) go; the run also creates the days ahead (none missing), deletes old rows from the default"
                        + " partition and the devices table under its advisory lock, in one transaction, then looks for finished days whose"
                        + " indexes are not rebuilt yet (none left here).",
                rows / days);
        line("");
        line(
                "- With the writer and the 2 query threads running: %s dropped in **%.0f ms**.",
                underLoad[0].dropped(), underLoad[0].ms());
        line("- Idle: %s dropped in **%.0f ms**.", idle.dropped(), idle.ms());
        line("");
        targetsSection(queries);
    }

    private void writerRow(String name, WriterRun run) {
        line(
                "| %s | %,.0f | %,d | %.0f / %.0f / %.0f | %,d |",
                name,
                run.rate(),
                run.units(),
                run.batches().p50(),
                run.batches().p95(),
                run.batches().max(),
                run.queries());
    }

    private double writerRate;
    private double dropMs;

    private record Retention(List<String> dropped, double ms) {}

    private Retention retention(LocalDate day) {
        var ds = connect();
        try {
            var now = Instant.now();
            // The cutoff is the end of the day: that day goes, the next stays.
            var maintenance = maintenance(
                    new JdbcTemplate(ds),
                    Clock.fixed(now, ZoneOffset.UTC),
                    Duration.between(start(day.plusDays(1)), now),
                    3);
            long t0 = System.nanoTime();
            var run = maintenance.run();
            double ms = (System.nanoTime() - t0) / 1e6;
            if (!run.dropped().equals(List.of("data_units_p" + day.toString().replace("-", "")))) {
                throw new IllegalStateException("Expected to drop " + day + " only, dropped " + run.dropped());
            }
            return new Retention(run.dropped(), ms);
        } finally {
            ds.destroy();
        }
    }

    private DataUnit newUnit(Random random) {
        int device = random.nextInt(DEVICES);
        var uplink = Ids.newId();
        var received = Ids.timeOf(uplink);
        Map<String, Double> measurements = device % 4 == 0
                ? Map.of(
                        "temperature",
                        round(15 + random.nextDouble() * 15),
                        "humidity",
                        round(30 + random.nextDouble() * 40),
                        "co2",
                        (double) (400 + random.nextInt(800)),
                        "battery",
                        round(3 + random.nextDouble() * 0.6))
                : Map.of(
                        "temperature",
                        round(15 + random.nextDouble() * 15),
                        "humidity",
                        round(30 + random.nextDouble() * 40),
                        "battery",
                        round(3 + random.nextDouble() * 0.6));
        return new DataUnit(
                Ids.derive(uplink, "data-unit"),
                DataUnit.SCHEMA_VERSION,
                uplink,
                "ch-" + device % CHANNELS,
                device % 4 == 0 ? "am307" : "em300th",
                "dev-%05d".formatted(device),
                received.minusSeconds(2),
                received,
                received.plusMillis(35),
                measurements,
                Map.of());
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    // ---------------------------------------------------------------- targets, plans

    private void targetsSection(List<Query> queries) {
        line("## Against the targets of issue 15 (these are for 100 M rows)");
        line("");
        line("| target | measured (%,d rows) | |", rows);
        line("|---|---|---|");
        for (var q : queries) {
            var w = warm.get(q.name());
            var c = cold.get(q.name());
            line(
                    "| %s: p95 ≤ %.0f ms | warm %.1f ms, cold-ish %.1f ms | %s |",
                    q.name(),
                    q.targetMs(),
                    w.p95(),
                    c.p95(),
                    verdict(w.p95() <= q.targetMs(), c.p95() <= q.targetMs()));
        }
        line(
                "| store writer ≥ 5,000 data units/s while queries run | %,.0f/s | %s |",
                writerRate, writerRate >= 5000 ? "met" : "**not met**");
        line(
                "| ≤ 250 bytes per data unit with indexes | %.0f bytes | %s |",
                bytesPerUnit, bytesPerUnit <= 250 ? "met" : "**not met**");
        line(
                "| dropping a day < 1 s | %.0f ms (slower of idle and under load) | %s |",
                dropMs, dropMs < 1000 ? "met" : "**not met**");
        line("");
    }

    private static String verdict(boolean warmMet, boolean coldMet) {
        return warmMet && coldMet ? "met" : warmMet ? "met warm, **not met** cold-ish" : "**not met**";
    }

    /** EXPLAIN ANALYZE of the two slowest queries (warm p95), as HistoryStore sends them, with literal values. */
    private void explainSection() {
        var slowest = warm.entrySet().stream()
                .sorted((a, b) ->
                        Double.compare(b.getValue().p95(), a.getValue().p95()))
                .limit(3)
                .map(Map.Entry::getKey)
                .toList();
        var ds = connect();
        var jdbc = new JdbcTemplate(ds);
        var random = new Random(99);
        var p = params(random, null);
        // The two oldest days are gone by now.
        var day = p.day().isBefore(firstDay.plusDays(2)) ? firstDay.plusDays(2) : p.day();
        var week = p.week().isBefore(firstDay.plusDays(2)) ? firstDay.plusDays(2) : p.week();
        var cols =
                "id, received_at, uplink_id, measured_at, decoded_at, schema_version, channel, device_type, device_id,"
                        + " measurements, attributes, measured_ns, received_ns, decoded_ns";
        var sql = new LinkedHashMap<String, String>();
        sql.put(
                "one device, first page newest first",
                "SELECT %s FROM data_units WHERE channel = '%s' AND device_id = '%s'"
                                .formatted(cols, p.channel(), p.deviceId())
                        + " ORDER BY id DESC LIMIT 101");
        sql.put(
                "one device, one day",
                "SELECT %s FROM data_units WHERE channel = '%s' AND device_id = '%s' AND received_at >= '%s' AND received_at < '%s' ORDER BY id LIMIT 1001"
                        .formatted(cols, p.channel(), p.deviceId(), start(day), start(day.plusDays(1))));
        sql.put(
                "a channel, one day",
                "SELECT %s FROM data_units WHERE channel = '%s' AND received_at >= '%s' AND received_at < '%s' ORDER BY id LIMIT 101"
                        .formatted(cols, p.channel(), start(day), start(day.plusDays(1))));
        sql.put(
                "a channel, newest first",
                "SELECT %s FROM data_units WHERE channel = '%s' ORDER BY id DESC LIMIT 101"
                        .formatted(cols, p.channel()));
        sql.put(
                "exact count of a channel",
                "SELECT count(*) FROM data_units WHERE channel = '%s' AND received_at >= '%s' AND received_at < '%s'"
                        .formatted(p.channel(), start(day), start(day.plusDays(1))));
        sql.put("estimated count", "EXPLAIN SELECT 1 FROM data_units WHERE channel = '%s'".formatted(p.channel()));
        sql.put(
                "latest per device",
                "SELECT %s FROM devices WHERE channel = '%s' ORDER BY received_at DESC, measured_at DESC, id DESC LIMIT 100"
                        .formatted(cols, p.channel()));
        var agg = """
                SELECT date_bin(make_interval(secs => 3600), measured_at, TIMESTAMPTZ 'epoch') AS start,
                       count(v), avg(v), min(v), max(v), sum(v)
                FROM (SELECT measured_at, (measurements ->> 'temperature')::float8 AS v FROM data_units
                      WHERE channel = '%s' AND device_id = '%s' AND received_at >= '%s' AND received_at < '%s'
                        AND measured_at >= '%s' AND measured_at < '%s') readings
                WHERE v IS NOT NULL GROUP BY start ORDER BY start""";
        // HistoryStore's default aggregate lateness: rows received up to a day after `to`.
        sql.put(
                "aggregate: one device, a random week",
                agg.formatted(
                        p.channel(),
                        p.deviceId(),
                        start(week),
                        start(week.plusDays(8)),
                        start(week),
                        start(week.plusDays(7))));
        sql.put(
                "aggregate: one device, the last 7 days",
                agg.formatted(
                        p.channel(),
                        p.deviceId(),
                        start(today.minusDays(7)),
                        start(today.plusDays(1)),
                        start(today.minusDays(7)),
                        start(today)));
        var near = Ids.timeOf(p.id());
        sql.put(
                "find by id",
                "SELECT %s FROM data_units WHERE id = '%s' AND received_at BETWEEN '%s' AND '%s'"
                        .formatted(cols, p.id(), near.minus(Duration.ofDays(1)), near.plus(Duration.ofDays(1))));
        line("## Plans of the slowest queries (warm p95)");
        line("");
        line("`EXPLAIN (ANALYZE, BUFFERS)` with literal values (custom plans), after the runs above.");
        line("");
        for (var name : slowest) {
            var key = sql.keySet().stream().filter(name::startsWith).findFirst();
            if (key.isEmpty()) {
                continue;
            }
            var text = sql.get(key.get());
            if (text.startsWith("EXPLAIN")) {
                continue;
            }
            line("### %s", name);
            line("");
            line("```");
            line("%s", text.replaceAll("\\s+", " "));
            line("");
            jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS) " + text, String.class)
                    .forEach(l -> line("%s", l));
            line("```");
            line("");
        }
        ds.destroy();
    }

    // ---------------------------------------------------------------- helpers

    private HistoryMaintenance maintenance(JdbcTemplate jdbc, Clock clock, Duration retention, int daysAhead) {
        var ds = jdbc.getDataSource();
        return new HistoryMaintenance(
                jdbc,
                new TransactionTemplate(new DataSourceTransactionManager(ds)),
                retention,
                Duration.ZERO,
                daysAhead,
                clock);
    }

    private SingleConnectionDataSource connect() {
        return new SingleConnectionDataSource(postgres.jdbcUrl(), Postgres.USER, "", true);
    }

    private static Instant start(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    private void line(String format, Object... args) {
        report.append(String.format(format, args)).append('\n');
    }

    private static void progress(String format, Object... args) {
        PrintStream err = System.err;
        err.printf("[history-bench %s] %s%n", Instant.now().toString().substring(11, 19), String.format(format, args));
    }

    private static String mb(long bytes) {
        return String.format("%,.0f MB", bytes / 1e6);
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static void deleteTree(Path root) throws IOException {
        try (var walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
}
