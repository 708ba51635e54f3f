package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.notify.history.AlarmStore;
import dev.iotpipeline.notify.history.DataUnitQuery;
import dev.iotpipeline.notify.history.HistoryMaintenance;
import dev.iotpipeline.notify.history.HistoryStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The partitioned history on a real PostgreSQL: the migration from the single table keeps every row, queries
 * read across days, the latest reading per device and the aggregates are what was stored, and retention drops
 * whole days and keeps the rest.
 */
class HistoryStorageIT {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    @TempDir
    Path data;

    private Postgres postgres;
    private DriverManagerDataSource dataSource;
    private JdbcTemplate jdbc;
    private HistoryStore store;

    @BeforeEach
    void startPostgres() throws Exception {
        postgres = Postgres.start(data.resolve("postgres"), EmbeddedStack.freePort(), false);
        dataSource = new DriverManagerDataSource(postgres.jdbcUrl(), Postgres.USER, "");
        // As notify connects: a batch becomes one multi-row statement.
        var connection = new java.util.Properties();
        connection.setProperty("reWriteBatchedInserts", "true");
        dataSource.setConnectionProperties(connection);
        jdbc = new JdbcTemplate(dataSource);
        store = new HistoryStore(new NamedParameterJdbcTemplate(dataSource));
    }

    @AfterEach
    void stopPostgres() throws Exception {
        postgres.close();
    }

    @Test
    void shouldMoveEveryRowOfTheSingleTableIntoDailyPartitionsAndKnowEachDevicesLatest() {
        flyway("1").migrate();
        var units = new ArrayList<DataUnit>();
        for (int day = 0; day < 5; day++) {
            for (int i = 0; i < 3; i++) {
                units.add(unit(
                        "old", "dev-" + i, NOW.minus(Duration.ofDays(4 - day)).plusSeconds(i), 20.0 + day + i));
            }
        }
        units.add(unitWithAttributes("old", "dev-a", NOW.minusSeconds(5), Map.of("fw", "1.2", "ok", true)));
        units.add(withTimes(
                unit("old", "dev-n", NOW.minusSeconds(9), 1.0),
                Instant.parse("2020-02-12T15:15:45.789585559Z"),
                NOW.minusSeconds(9).plusNanos(123_456_789)));
        for (var unit : units) {
            jdbc.update(
                    """
                    INSERT INTO data_units (id, uplink_id, channel, device_type, device_id, measured_at, received_at, body)
                    VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb))""",
                    unit.id(),
                    unit.uplinkId(),
                    unit.channel(),
                    unit.deviceType(),
                    unit.deviceId(),
                    Timestamp.from(unit.measuredAt()),
                    Timestamp.from(unit.receivedAt()),
                    new String(EventJson.write(unit), StandardCharsets.UTF_8));
        }

        flyway(null).migrate();

        var query = new DataUnitQuery(null, "old", null, null, null, null);
        assertThat(store.count(query)).isEqualTo(units.size());
        assertThat(store.page(query, null, 100, false).items())
                .containsExactlyElementsOf(units.stream()
                        .sorted(java.util.Comparator.comparing((DataUnit u) -> u.id().toString()))
                        .toList());
        assertThat(partitionOf(units.getFirst().id()))
                .isNotEqualTo(partitionOf(units.getLast().id()))
                .startsWith("data_units_p");
        assertThat(store.latestPerDevice(query, 10))
                .extracting(DataUnit::deviceId)
                .containsExactly("dev-2", "dev-1", "dev-0", "dev-a", "dev-n");
        assertThat(store.latestPerDevice(query, 10).getFirst().measurements()).containsEntry("temperature", 26.0);
        assertThat(store.latestPerDevice(query, 10).get(3).attributes()).isEqualTo(Map.of("fw", "1.2", "ok", true));
    }

    @Test
    void shouldPageCountAndAggregateAcrossDaysAndKeepOnlyTheNewestReadingPerDevice() {
        flyway(null).migrate();
        // Two days of one device every 30 minutes, plus a second device and a replay of the first batch.
        var units = new ArrayList<DataUnit>();
        var start = Instant.parse("2026-11-22T00:00:00Z");
        for (int i = 0; i < 96; i++) {
            units.add(unit("agg", "dev-1", start.plus(Duration.ofMinutes(30L * i)), i));
        }
        units.add(unit("agg", "dev-2", start.plus(Duration.ofHours(1)), 99));
        store.storeDataUnits(stored(units));
        store.storeDataUnits(stored(units.subList(0, 10)));

        var channel = new DataUnitQuery(null, "agg", null, null, null, null);
        assertThat(store.count(channel)).isEqualTo(97);
        assertThat(store.estimateCount(channel)).isPositive();
        var day = new DataUnitQuery(
                null, "agg", null, "dev-1", start.plus(Duration.ofDays(1)), start.plus(Duration.ofDays(2)));
        assertThat(store.count(day)).isEqualTo(48);

        var newest = store.page(new DataUnitQuery(null, "agg", null, "dev-1", null, null), null, 5, true);
        assertThat(newest.items())
                .extracting(u -> u.measurements().get("temperature"))
                .containsExactly(95.0, 94.0, 93.0, 92.0, 91.0);
        var next = store.page(
                new DataUnitQuery(null, "agg", null, "dev-1", null, null),
                UUID.fromString(newest.nextCursor()),
                2,
                true);
        assertThat(next.items())
                .extracting(u -> u.measurements().get("temperature"))
                .containsExactly(90.0, 89.0);

        // Hourly buckets of the first three hours: readings 0+1, 2+3, 4+5.
        var buckets = store.aggregate(
                new DataUnitQuery(null, "agg", null, "dev-1", null, null),
                "temperature",
                start,
                start.plus(Duration.ofHours(3)),
                Duration.ofHours(1));
        assertThat(buckets)
                .extracting(HistoryStore.Bucket::start)
                .containsExactly(start, start.plus(Duration.ofHours(1)), start.plus(Duration.ofHours(2)));
        assertThat(buckets).extracting(HistoryStore.Bucket::count).containsExactly(2L, 2L, 2L);
        assertThat(buckets).extracting(HistoryStore.Bucket::avg).containsExactly(0.5, 2.5, 4.5);
        assertThat(buckets).extracting(HistoryStore.Bucket::min).containsExactly(0.0, 2.0, 4.0);
        assertThat(buckets).extracting(HistoryStore.Bucket::max).containsExactly(1.0, 3.0, 5.0);
        var daily = store.aggregate(
                new DataUnitQuery(null, "agg", null, "dev-1", null, null),
                "temperature",
                start,
                start.plus(Duration.ofDays(2)),
                Duration.ofDays(1));
        assertThat(daily).extracting(HistoryStore.Bucket::count).containsExactly(48L, 48L);
        assertThat(store.aggregate(
                        new DataUnitQuery(null, "agg", null, "dev-1", null, null),
                        "humidity",
                        start,
                        start.plus(Duration.ofDays(2)),
                        Duration.ofDays(1)))
                .isEmpty();

        // Two events of one alarm in a batch: the later state is kept.
        var alarms = new AlarmStore(new NamedParameterJdbcTemplate(dataSource));
        var raised = alarm(UUID.randomUUID(), AlarmState.ACTIVE, start, null);
        var cleared = alarm(raised.alarmId(), AlarmState.CLEARED, start, start.plusSeconds(60));
        alarms.storeAlarms(List.of(stored(cleared), stored(raised), stored(raised)));
        assertThat(alarms.alarm(raised.alarmId())).map(AlarmEvent::state).contains(AlarmState.CLEARED);

        // An older reading arriving late does not replace a device's latest one.
        store.storeDataUnits(stored(List.of(unit("agg", "dev-2", start, -1))));
        assertThat(store.devices(channel, 10))
                .extracting(HistoryStore.Device::deviceId, d -> d.measurements().get("temperature"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("dev-1", 95.0),
                        org.assertj.core.groups.Tuple.tuple("dev-2", 99.0));
    }

    @Test
    void shouldStoreARetriedDataUnitOnceWithinADayAndKeepTimesToTheNanosecond() {
        flyway(null).migrate();
        var original = withTimes(
                unit("retry", "dev-1", NOW, 21.0), Instant.parse("2020-02-12T15:15:45.789585559Z"), NOW.plusNanos(999));
        var retried = withTimes(
                original, original.measuredAt(), NOW.plus(Duration.ofMinutes(5)).plusNanos(7));
        var muchLater = withTimes(original, original.measuredAt(), NOW.plus(Duration.ofDays(3)));

        store.storeDataUnits(stored(List.of(original, original)));
        store.storeDataUnits(stored(List.of(retried)));
        var channel = new DataUnitQuery(null, "retry", null, null, null, null);
        assertThat(store.page(channel, null, 10, false).items()).containsExactly(original);
        assertThat(store.find(original.id())).contains(original);
        assertThat(store.latestPerDevice(channel, 10)).containsExactly(retried);

        // An id a client chose carries no time: found by looking in every day.
        var chosen = new DataUnit(
                UUID.randomUUID(),
                1,
                UUID.randomUUID(),
                "retry",
                "em300th",
                "dev-9",
                NOW,
                NOW,
                NOW,
                Map.of("temperature", 1.0),
                Map.of());
        store.storeDataUnits(stored(List.of(chosen)));
        assertThat(store.find(chosen.id())).contains(chosen);

        // Beyond the retry window a copy is a new row: documented, and what keeps the check to two days' partitions.
        store.storeDataUnits(stored(List.of(muchLater)));
        assertThat(store.count(channel)).isEqualTo(3);
    }

    @Test
    void shouldStoreHistoryAloneAndMoveEachDevicesLatestReadingOnlyForwardLater() {
        flyway(null).migrate();
        var older = unit("later", "dev-1", NOW, 20.0);
        var newer = unit("later", "dev-1", NOW.plusSeconds(1), 21.0);
        var other = unit("later", "dev-2", NOW, 22.0);
        var channel = new DataUnitQuery(null, "later", null, null, null, null);

        assertThat(store.storeHistory(stored(List.of(older, newer, other)))).isEmpty();
        assertThat(store.count(channel)).isEqualTo(3);
        assertThat(store.latestPerDevice(channel, 10)).as("devices untouched").isEmpty();

        store.moveLatest(List.of(newer, other, older));
        assertThat(store.latestPerDevice(channel, 10)).containsExactly(newer, other);

        store.moveLatest(List.of(older));
        assertThat(store.latestPerDevice(channel, 10)).as("never backwards").containsExactly(newer, other);
    }

    @Test
    void shouldDropWholeDaysOlderThanTheRetentionKeepTheRestAndMoveLateRowsIntoNewDays() {
        flyway(null).migrate();
        var today = NOW.atZone(ZoneOffset.UTC).toLocalDate();
        // Partitions from three days ago on, as a service running since then would have made them.
        var first = maintenance(Clock.fixed(NOW.minus(Duration.ofDays(3)), ZoneOffset.UTC), Duration.ZERO)
                .run();
        assertThat(first.created()).contains(partition(today.minusDays(3)), partition(today.minusDays(1)));
        var units = new ArrayList<DataUnit>();
        for (int daysAgo = 0; daysAgo < 4; daysAgo++) {
            units.add(unit("ret", "dev-" + daysAgo, NOW.minus(Duration.ofDays(daysAgo)), daysAgo));
        }
        // Received before every partition: kept in the default one until its day is created.
        units.add(unit("ret", "dev-late", NOW.minus(Duration.ofDays(10)), 10));
        units.add(unit("ret", "dev-ancient", NOW.minus(Duration.ofDays(40)), 40));
        store.storeDataUnits(stored(units));
        assertThat(partitionOf(units.get(4).id())).isEqualTo("data_units_default");
        assertThat(partitionOf(units.get(1).id())).isEqualTo(partition(today.minusDays(1)));
        // A maintenance run on the late row's day creates that day and moves the row into it.
        var late = maintenance(Clock.fixed(NOW.minus(Duration.ofDays(10)), ZoneOffset.UTC), Duration.ZERO)
                .run();
        assertThat(late.created()).contains(partition(today.minusDays(10)));
        assertThat(partitionOf(units.get(4).id())).isEqualTo(partition(today.minusDays(10)));

        jdbc.update(
                "INSERT INTO alarms (alarm_id, last_event, rule_id, severity, state, acknowledged, channel, "
                        + "device_id, raised_at, updated_at, body) VALUES (?, ?, 'r', 'MINOR', 'CLEARED', false, 'ret', 'd', ?, ?, "
                        + "'{}'), (?, ?, 'r', 'MINOR', 'ACTIVE', false, 'ret', 'd', ?, ?, '{}')",
                UUID.randomUUID(),
                UUID.randomUUID(),
                ts(NOW.minus(Duration.ofDays(30))),
                ts(NOW.minus(Duration.ofDays(30))),
                UUID.randomUUID(),
                UUID.randomUUID(),
                ts(NOW.minus(Duration.ofDays(30))),
                ts(NOW.minus(Duration.ofDays(30))));

        // Retention of two days from noon: days that ended before then go, whole; the day the cutoff falls in stays.
        var run = maintenance(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofDays(2))
                .run();

        assertThat(run.skipped()).isFalse();
        assertThat(run.dropped()).contains(partition(today.minusDays(3)), partition(today.minusDays(10)));
        assertThat(run.dropped())
                .doesNotContain(partition(today.minusDays(2)), partition(today.minusDays(1)), partition(today));
        assertThat(run.defaultRowsDeleted())
                .as("the 40-day-old row in the default partition")
                .isEqualTo(1);
        assertThat(run.alarmsDeleted())
                .as("the cleared alarm, not the active one")
                .isEqualTo(1);
        assertThat(store.page(new DataUnitQuery(null, "ret", null, null, null, null), null, 100, false)
                        .items())
                .extracting(DataUnit::deviceId)
                .containsExactlyInAnyOrder("dev-0", "dev-1", "dev-2");
        assertThat(store.devices(new DataUnitQuery(null, "ret", null, null, null, null), 10))
                .extracting(HistoryStore.Device::deviceId)
                .containsExactlyInAnyOrder("dev-0", "dev-1", "dev-2");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM alarms WHERE state = 'ACTIVE'", Integer.class))
                .isEqualTo(1);

        // A day that no longer changes has its indexes rebuilt once, and is read as before.
        assertThat(run.compacted()).containsExactly(partition(today.minusDays(2)));
        assertThat(maintenance(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofDays(2))
                        .run()
                        .compacted())
                .isEmpty();
        assertThat(store.find(units.get(2).id())).contains(units.get(2));
    }

    private HistoryMaintenance maintenance(Clock clock, Duration retention) {
        return new HistoryMaintenance(
                jdbc,
                new TransactionTemplate(new DataSourceTransactionManager(dataSource)),
                retention,
                Duration.ofDays(7),
                3,
                clock);
    }

    @Test
    void shouldRefuseACopyFromADifferentUplinkAndReturnItWhileARepeatIsSkippedSilently() {
        flyway(null).migrate();
        var original = unit("conflict", "dev-1", NOW, 21.0);
        var repeat = withTimes(original, original.measuredAt(), NOW.plus(Duration.ofMinutes(5)));
        var conflicting = new DataUnit(
                original.id(),
                original.schemaVersion(),
                original.uplinkId(),
                "conflict",
                "em300th",
                "dev-1",
                original.measuredAt(),
                NOW.plus(Duration.ofMinutes(6)),
                NOW.plus(Duration.ofMinutes(6)),
                Map.of("temperature", 35.0),
                Map.of());
        var legacy = unit("conflict", "dev-2", NOW, 22.0);
        store.storeDataUnits(List.of(new HistoryStore.Stored<>(legacy, null)));

        assertThat(store.storeDataUnits(List.of(new HistoryStore.Stored<>(original, null, 7L))))
                .isEmpty();
        var inOneBatch = new HistoryStore.Stored<>(conflicting, null, 9L);
        var fresh = unit("conflict", "dev-3", NOW, 23.0);
        var freshConflict =
                new HistoryStore.Stored<>(withTimes(fresh, fresh.measuredAt(), NOW.plusSeconds(1)), null, 5L);
        var refused = store.storeDataUnits(List.of(
                new HistoryStore.Stored<>(repeat, null, 7L),
                inOneBatch,
                new HistoryStore.Stored<>(fresh, null, 4L),
                freshConflict,
                new HistoryStore.Stored<>(withTimes(legacy, legacy.measuredAt(), NOW.plusSeconds(9)), null, 3L)));

        assertThat(refused)
                .as("a copy with another digest, in the store or earlier in the batch; a row without a"
                        + " digest conflicts with nothing")
                .containsExactly(inOneBatch, freshConflict);
        var channel = new DataUnitQuery(null, "conflict", null, null, null, null);
        assertThat(store.count(channel)).isEqualTo(3);
        assertThat(store.find(original.id())).contains(original);
        assertThat(store.latestPerDevice(new DataUnitQuery(null, "conflict", null, "dev-1", null, null), 1))
                .as("a conflicting copy never becomes the device's latest reading")
                .containsExactly(repeat);
        assertThat(jdbc.queryForObject("SELECT uplink_digest FROM data_units WHERE id = ?", Long.class, original.id()))
                .isEqualTo(7L);
    }

    @Test
    void shouldCopyUnitsOfMintedIdsWithoutLookingThemUpYetStoreAReplayOnce() {
        flyway(null).migrate();
        var first = unit("minted", "dev-1", NOW, 21.0);
        var second = unit("minted", "dev-2", NOW, 22.0);
        assertThat(store.storeDataUnits(List.of(minted(first, 7L)))).isEmpty();

        // A replay (a writer that crashed before committing its offsets) meets the stored key in the copy; the batch
        // is then looked up and copied again without it.
        assertThat(store.storeDataUnits(List.of(minted(second, 8L), minted(first, 7L), minted(second, 8L))))
                .isEmpty();

        var channel = new DataUnitQuery(null, "minted", null, null, null, null);
        assertThat(store.count(channel)).isEqualTo(2);
        assertThat(store.find(first.id())).contains(first);
        assertThat(store.find(second.id())).contains(second);
        assertThat(jdbc.queryForList("SELECT uplink_digest FROM data_units ORDER BY uplink_digest", Long.class))
                .containsExactly(7L, 8L);

        // The mark is taken at its word: a copy received at another time (which only a sender's key can give, and
        // then the record is not marked) would not be looked for.
        var laterCopy = withTimes(first, first.measuredAt(), NOW.plus(Duration.ofMinutes(5)));
        store.storeDataUnits(List.of(minted(laterCopy, 7L)));
        assertThat(store.count(channel)).isEqualTo(3);
        store.storeDataUnits(List.of(new HistoryStore.Stored<>(
                withTimes(first, first.measuredAt(), NOW.plus(Duration.ofMinutes(6))), null, 7L)));
        assertThat(store.count(channel)).as("unmarked, the copy is looked for").isEqualTo(3);
    }

    @Test
    void shouldKeepTabsBackslashesAndLineBreaksInTextAndJsonColumnsAsSent() {
        flyway(null).migrate();
        var odd = unitWithAttributes(
                "esc\\ape", "dev\t1\n2", NOW, Map.of("note", "line\none\ttab \\ \"quoted\" \u00e9\u20ac", "n", 1));
        var withKey = new DataUnit(
                odd.id(),
                odd.schemaVersion(),
                odd.uplinkId(),
                odd.channel(),
                "type\r\\N",
                odd.deviceId(),
                odd.measuredAt(),
                odd.receivedAt(),
                odd.decodedAt(),
                Map.of("temp\\erature\t", 21.5),
                odd.attributes());

        assertThat(store.storeDataUnits(stored(List.of(withKey)))).isEmpty();

        assertThat(store.find(withKey.id())).contains(withKey);
    }

    @Test
    void shouldSkipARowAnotherWriterCommitsBetweenTheLookupAndTheCopy() throws Exception {
        flyway(null).migrate();
        var unit = unit("race", "dev-1", NOW, 21.0);
        var other = unit("race", "dev-2", NOW, 22.0);
        // Another writer (a zombie instance during a rebalance) has inserted the same row and not yet committed:
        // the lookup cannot see it, and the copy waits for it on the primary key.
        try (var zombie = dataSource.getConnection()) {
            zombie.setAutoCommit(false);
            try (var insert = zombie.prepareStatement("""
                    INSERT INTO data_units (id, received_at, uplink_id, measured_at, schema_version, channel,
                                            device_type, device_id, measurements, uplink_digest)
                    VALUES (?, ?, ?, ?, 1, 'race', 'em300th', 'dev-1', '{}', 7)""")) {
                insert.setObject(1, unit.id());
                insert.setTimestamp(2, Timestamp.from(unit.receivedAt()));
                insert.setObject(3, unit.uplinkId());
                insert.setTimestamp(4, Timestamp.from(unit.measuredAt()));
                insert.executeUpdate();
            }
            var writer = CompletableFuture.supplyAsync(() -> store.storeHistory(
                    List.of(new HistoryStore.Stored<>(unit, null, 8L), new HistoryStore.Stored<>(other, null, 9L))));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> jdbc.queryForObject(
                                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
                                    Integer.class)
                            == 1);
            zombie.commit();

            assertThat(writer.get(10, TimeUnit.SECONDS))
                    .as("looked up again, the row is stored with another digest")
                    .extracting(HistoryStore.Stored::uplinkDigest)
                    .containsExactly(8L);
        }
        assertThat(jdbc.queryForList("SELECT uplink_digest FROM data_units ORDER BY uplink_digest", Long.class))
                .as("the other row of the batch is stored once, the raced one once, the zombie's")
                .containsExactly(7L, 9L);
    }

    private Flyway flyway(String target) {
        var config = Flyway.configure().dataSource(dataSource).locations("classpath:db/migration");
        if (target != null) {
            config.target(target);
        }
        return config.load();
    }

    private String partitionOf(UUID id) {
        return jdbc.queryForObject("SELECT tableoid::regclass::text FROM data_units WHERE id = ?", String.class, id);
    }

    private UUID lastIdOf(String deviceId) {
        return jdbc.queryForObject("SELECT id FROM devices WHERE device_id = ?", UUID.class, deviceId);
    }

    private static List<HistoryStore.Stored<DataUnit>> stored(List<DataUnit> units) {
        return units.stream()
                .map(u -> new HistoryStore.Stored<>(u, new String(EventJson.write(u), StandardCharsets.UTF_8)))
                .toList();
    }

    private static HistoryStore.Stored<DataUnit> minted(DataUnit unit, long digest) {
        return new HistoryStore.Stored<>(unit, null, digest, true);
    }

    private static <T> HistoryStore.Stored<T> stored(T event) {
        return new HistoryStore.Stored<>(event, new String(EventJson.write(event), StandardCharsets.UTF_8));
    }

    private static AlarmEvent alarm(UUID alarmId, AlarmState state, Instant raisedAt, Instant clearedAt) {
        return new AlarmEvent(
                dev.iotpipeline.events.Ids.newId(),
                AlarmEvent.SCHEMA_VERSION,
                alarmId,
                "rule-1",
                "hot",
                Severity.MAJOR,
                state,
                false,
                "agg",
                "em300th",
                "dev-1",
                UUID.randomUUID(),
                Map.of("temperature", 40.0),
                raisedAt,
                raisedAt,
                clearedAt,
                null);
    }

    private static DataUnit unit(String channel, String deviceId, Instant at, double temperature) {
        var uplink = dev.iotpipeline.events.Ids.newId();
        return new DataUnit(
                dev.iotpipeline.events.Ids.derive(
                        new UUID(
                                (at.plusSeconds(2).toEpochMilli() << 16)
                                        | 0x7000L
                                        | (uplink.getMostSignificantBits() & 0x0FFFL),
                                uplink.getLeastSignificantBits()),
                        "data-unit"),
                DataUnit.SCHEMA_VERSION,
                uplink,
                channel,
                "em300th",
                deviceId,
                at,
                at.plusSeconds(2),
                at.plusSeconds(3),
                Map.of("temperature", temperature, "battery", 3.6),
                Map.of());
    }

    private static DataUnit withTimes(DataUnit u, Instant measuredAt, Instant receivedAt) {
        return new DataUnit(
                u.id(),
                u.schemaVersion(),
                u.uplinkId(),
                u.channel(),
                u.deviceType(),
                u.deviceId(),
                measuredAt,
                receivedAt,
                receivedAt.plusNanos(1_500),
                u.measurements(),
                u.attributes());
    }

    private static DataUnit unitWithAttributes(
            String channel, String deviceId, Instant at, Map<String, Object> attributes) {
        var u = unit(channel, deviceId, at, 30.0);
        return new DataUnit(
                u.id(),
                u.schemaVersion(),
                u.uplinkId(),
                u.channel(),
                u.deviceType(),
                u.deviceId(),
                u.measuredAt(),
                u.receivedAt(),
                u.decodedAt(),
                u.measurements(),
                attributes);
    }

    private static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }

    /** A day's partition, named as the maintenance names it. */
    private static String partition(java.time.LocalDate day) {
        return "data_units_p" + day.toString().replace("-", "");
    }
}
