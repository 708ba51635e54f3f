package dev.iotpipeline.notify.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.support.Acknowledgment;

/** The store writer against an in-memory table that refuses what PostgreSQL refuses: NUL in text. */
class HistoryWriterTest {

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

    private final List<String> storedUnits = new ArrayList<>();
    private final List<String> storedAlarms = new ArrayList<>();
    private boolean databaseAway;
    private int unitWrites;
    private final List<String> deadLetters = new ArrayList<>();
    private long nanoTime;
    private boolean devicesAway;
    private final List<List<String>> latestWrites = new ArrayList<>();
    private final List<Ack> acks = new ArrayList<>();
    private final LatestReadings latest = new LatestReadings(this::writeLatest, Duration.ofSeconds(1), () -> nanoTime);
    private final HistoryWriter writer = new HistoryWriter(
            this::storeUnits,
            this::storeAlarms,
            (record, cause) -> deadLetters.add(record.offset() + " "
                    + ((UnprocessableRecordException) cause).deadLetterCause() + " " + cause.getMessage()),
            latest);
    private long offset;
    private final Map<java.util.UUID, Long> digests = new java.util.HashMap<>();

    @Test
    void aSmallBatchIsFollowedByThePauseAndAFullOneIsNot() {
        var lingering = new HistoryWriter(
                this::storeUnits,
                this::storeAlarms,
                (record, cause) -> {},
                latest,
                new HistoryWriter.Linger(Duration.ofMillis(300), 3));

        long small = System.nanoTime();
        deliver(lingering, List.of(unit("dev-1"), unit("dev-2")));
        var smallTook = Duration.ofNanos(System.nanoTime() - small);
        long full = System.nanoTime();
        deliver(lingering, List.of(unit("dev-3"), unit("dev-4"), unit("dev-5")));
        var fullTook = Duration.ofNanos(System.nanoTime() - full);

        assertThat(storedUnits).hasSize(5);
        assertThat(smallTook).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(fullTook).isLessThan(Duration.ofMillis(300));
    }

    @Test
    void shouldStoreAWholeBatchInOneWritePerTable() {
        deliver(writer, List.of(unit("dev-1"), alarm("dev-1"), unit("dev-2")));

        assertThat(storedUnits).containsExactly("dev-1", "dev-2");
        assertThat(storedAlarms).containsExactly("dev-1");
        assertThat(unitWrites).isEqualTo(1);
    }

    @Test
    void shouldStoreWhatParsedBeforeARecordThatIsNotAnEventAndNameThatRecordAsMalformed() {
        var batch = List.of(unit("dev-1"), raw(PipelineTopic.DATA_UNITS, "{not json"), unit("dev-3"));

        var failure = catchThrowableOfType(BatchListenerFailedException.class, () -> deliver(writer, batch));

        assertThat(failure.getIndex()).isEqualTo(1);
        assertThat(failure.getCause())
                .isInstanceOfSatisfying(
                        UnprocessableRecordException.class,
                        e -> assertThat(e.deadLetterCause()).isEqualTo(DeadLetterHeaders.CAUSE_MALFORMED_EVENT));
        assertThat(storedUnits).as("committed up to the bad record, so stored").containsExactly("dev-1");
    }

    @Test
    void shouldCallAnEventWithoutWhatItsTableRequiresMalformed() {
        var failure = catchThrowableOfType(
                BatchListenerFailedException.class,
                () -> deliver(writer, List.of(raw(PipelineTopic.ALARMS, "{\"deviceId\":\"dev-1\"}"))));

        assertThat(failure.getIndex()).isZero();
        assertThat(failure.getCause()).hasMessageContaining("not a AlarmEvent: missing id");
    }

    @Test
    void shouldFindTheRowTheTableRefusesStoreTheRowsBeforeItAndNameIt() {
        var batch = List.of(unit("dev-1"), unit("dev-2"), unit("bad\u0000dev"), unit("dev-4"));

        var failure = catchThrowableOfType(BatchListenerFailedException.class, () -> deliver(writer, batch));

        assertThat(failure.getIndex()).isEqualTo(2);
        assertThat(failure.getCause())
                .isInstanceOfSatisfying(
                        UnprocessableRecordException.class,
                        e -> assertThat(e.deadLetterCause()).isEqualTo(DeadLetterHeaders.CAUSE_REJECTED_BY_STORE));
        assertThat(storedUnits).containsExactly("dev-1", "dev-2");
    }

    @Test
    void shouldDeadLetterEveryConflictingRetryOfABatchStoreTheRestAndSkipARepeat() {
        var original = new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "ch",
                "em300th",
                "dev-1",
                T0,
                T0,
                T0,
                Map.of("temperature", 21.0),
                Map.of());
        var conflicting = new DataUnit(
                original.id(),
                1,
                original.uplinkId(),
                "ch",
                "em300th",
                "dev-1",
                T0,
                T0.plusSeconds(5),
                T0.plusSeconds(5),
                Map.of("temperature", 35.0),
                Map.of());
        deliver(writer, List.of(unit(original, 7L)));
        var conflict = unit(conflicting, 8L);
        var another = unit(conflicting, 9L);

        deliver(writer, List.of(unit("dev-0"), unit(original, 7L), conflict, unit("dev-3"), another));

        assertThat(storedUnits).as("the repeat is skipped, the rest stored").containsExactly("dev-1", "dev-0", "dev-3");
        assertThat(deadLetters).hasSize(2);
        assertThat(deadLetters.getFirst())
                .startsWith(conflict.offset() + " " + DeadLetterHeaders.CAUSE_IDEMPOTENCY_CONFLICT)
                .contains(original.uplinkId().toString(), "dev-1", "idempotency key");
        assertThat(deadLetters.get(1)).startsWith(another.offset() + " ");
    }

    @Test
    void shouldFailTheBatchFromAConflictWhoseDeadLetterKafkaDoesNotTake() {
        var original = new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "ch",
                "em300th",
                "dev-1",
                T0,
                T0,
                T0,
                Map.of("temperature", 21.0),
                Map.of());
        var failing = new HistoryWriter(
                this::storeUnits,
                this::storeAlarms,
                (record, cause) -> {
                    throw new org.apache.kafka.common.errors.TimeoutException("dead letter not acknowledged");
                },
                latest);
        deliver(failing, List.of(unit(original, 7L)));

        var failure = catchThrowableOfType(
                BatchListenerFailedException.class, () -> deliver(failing, List.of(unit("dev-0"), unit(original, 8L))));

        assertThat(failure.getIndex()).isEqualTo(1);
        assertThat(failure.getCause()).isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
    }

    @Test
    void shouldRetryTheWholeBatchWhileTheDatabaseIsAwayWithoutBlamingARecord() {
        databaseAway = true;

        var failure = catchThrowableOfType(
                BatchListenerFailedException.class, () -> deliver(writer, List.of(unit("dev-1"), unit("dev-2"))));

        assertThat(failure.getIndex()).isZero();
        assertThat(failure.getCause()).isInstanceOf(CannotGetJdbcConnectionException.class);
        assertThat(unitWrites)
                .as("no row-by-row search while the database is away")
                .isEqualTo(1);
    }

    @Test
    void shouldAcknowledgeBatchesOnlyOnceTheirDevicesLatestReadingsAreWrittenOncePerInterval() {
        deliver(writer, List.of(unit("dev-1", 20.0), unit("dev-2", 20.0)));
        nanoTime += Duration.ofMillis(400).toNanos();
        deliver(writer, List.of(unit("dev-1", 21.0), alarm("dev-1")));

        assertThat(storedUnits).containsExactly("dev-1", "dev-2", "dev-1");
        assertThat(latestWrites).as("within the interval: nothing written yet").isEmpty();
        assertThat(acks).noneMatch(Ack::acknowledged);

        nanoTime += Duration.ofMillis(600).toNanos();
        deliver(writer, List.of(unit("dev-2", 22.0)));

        assertThat(latestWrites)
                .as("one write, each device once, with its newest reading")
                .containsExactly(List.of("dev-1=21.0", "dev-2=22.0"));
        assertThat(acks).allMatch(Ack::acknowledged);
    }

    @Test
    void shouldWriteDevicesNotWrittenLatelyAtTheBoundAndLetDevicesHeardOftenWaitForTheInterval() {
        var bounded = new HistoryWriter(
                this::storeUnits,
                this::storeAlarms,
                (record, cause) -> {},
                new LatestReadings(this::writeLatest, Duration.ofSeconds(1), () -> nanoTime, 2));

        deliver(bounded, List.of(unit("dev-1", 20.0), unit("dev-2", 20.0)));
        assertThat(latestWrites)
                .as("two devices not written lately reach the bound of two")
                .containsExactly(List.of("dev-1=20.0", "dev-2=20.0"));

        nanoTime += Duration.ofMillis(100).toNanos();
        deliver(bounded, List.of(unit("dev-1", 21.0), unit("dev-2", 21.0)));
        assertThat(latestWrites)
                .as("written 0.1 s ago: they wait for the interval")
                .hasSize(1);

        deliver(bounded, List.of(unit("dev-3", 22.0), unit("dev-4", 22.0)));
        assertThat(latestWrites)
                .as("two more not written lately reach the bound, and every device waiting goes with them")
                .hasSize(2)
                .last()
                .isEqualTo(List.of("dev-1=21.0", "dev-2=21.0", "dev-3=22.0", "dev-4=22.0"));

        nanoTime += Duration.ofMillis(100).toNanos();
        deliver(bounded, List.of(unit("dev-1", 23.0)));
        nanoTime += Duration.ofMillis(900).toNanos();
        deliver(bounded, List.of(unit("dev-2", 24.0)));
        assertThat(latestWrites).as("still below the bound").hasSize(2);

        nanoTime += Duration.ofMillis(100).toNanos();
        deliver(bounded, List.of(unit("dev-2", 25.0)));
        assertThat(latestWrites)
                .as("the oldest waited the interval")
                .hasSize(3)
                .last()
                .isEqualTo(List.of("dev-1=23.0", "dev-2=25.0"));
        assertThat(acks).allMatch(Ack::acknowledged);
    }

    @Test
    void shouldAcknowledgeABatchAtOnceWhenNoLatestReadingWaits() {
        deliver(writer, List.of(alarm("dev-1")));

        assertThat(acks).singleElement().matches(Ack::acknowledged);
        assertThat(latestWrites).isEmpty();
    }

    @Test
    void shouldWriteWhatWaitsWhenTheConsumerIdles() {
        deliver(writer, List.of(unit("dev-1", 20.0)));

        latest.whenIdle();

        assertThat(latestWrites).containsExactly(List.of("dev-1=20.0"));
        assertThat(acks).allMatch(Ack::acknowledged);
    }

    @Test
    void shouldWriteTheWaitingLatestReadingsBeforeAFailureLetsTheErrorHandlerCommit() {
        deliver(writer, List.of(unit("dev-1", 20.0)));

        var failure = catchThrowableOfType(
                BatchListenerFailedException.class,
                () -> deliver(writer, List.of(unit("dev-2", 21.0), raw(PipelineTopic.DATA_UNITS, "{not json"))));

        assertThat(failure.getIndex()).isEqualTo(1);
        assertThat(latestWrites)
                .as("the earlier batch's device and the failed batch's rows before the bad record")
                .containsExactly(List.of("dev-1=20.0", "dev-2=21.0"));
        assertThat(acks.getFirst().acknowledged()).isTrue();
    }

    @Test
    void shouldFailTheBatchFromItsStartWhenTheLatestReadingsCannotBeWrittenBeforeACommit() {
        deliver(writer, List.of(unit("dev-1", 20.0)));
        devicesAway = true;

        var failure = catchThrowableOfType(
                BatchListenerFailedException.class,
                () -> deliver(writer, List.of(unit("dev-2", 21.0), raw(PipelineTopic.DATA_UNITS, "{not json"))));

        assertThat(failure.getIndex())
                .as("nothing of it committed, nothing dead-lettered")
                .isZero();
        assertThat(failure.getCause()).isInstanceOf(CannotGetJdbcConnectionException.class);
        assertThat(acks).noneMatch(Ack::acknowledged);

        devicesAway = false;
        latest.whenIdle();
        assertThat(latestWrites).containsExactly(List.of("dev-1=20.0", "dev-2=21.0"));
        assertThat(acks.getFirst().acknowledged()).isTrue();
    }

    @Test
    void shouldWriteWhatWaitsBeforeTheContainerCommitsForPartitionsItGivesUp() {
        deliver(writer, List.of(unit("dev-1", 20.0)));

        latest.following(null).onPartitionsRevokedBeforeCommit(null, List.of());

        assertThat(latestWrites).containsExactly(List.of("dev-1=20.0"));
        assertThat(acks).allMatch(Ack::acknowledged);
    }

    @Test
    void shouldNeverAcknowledgeBatchesOfLostPartitions() {
        deliver(writer, List.of(unit("dev-1", 20.0)));

        latest.following(null).onPartitionsLost(null, List.of());
        latest.whenIdle();

        assertThat(latestWrites).as("still written: never backwards").containsExactly(List.of("dev-1=20.0"));
        assertThat(acks).noneMatch(Ack::acknowledged);
    }

    @Test
    void shouldNeitherWriteNorAcknowledgeAConflictingRetrysReading() {
        var original = unit("dev-1", 20.0);
        deliver(writer, List.of(original));
        var conflicting =
                new ConsumerRecord<>(PipelineTopic.DATA_UNITS.topicName(), 0, offset++, "dev-1", original.value());
        UplinkDigest.add(conflicting.headers(), 99L);

        nanoTime += Duration.ofSeconds(1).toNanos();
        deliver(writer, List.of(conflicting));

        assertThat(deadLetters).singleElement().asString().contains(DeadLetterHeaders.CAUSE_IDEMPOTENCY_CONFLICT);
        assertThat(latestWrites).containsExactly(List.of("dev-1=20.0"));
    }

    private void writeLatest(java.util.Collection<DataUnit> units) {
        if (devicesAway) {
            throw new CannotGetJdbcConnectionException("Connection refused");
        }
        latestWrites.add(units.stream()
                .map(u -> u.deviceId() + "=" + u.measurements().get("temperature"))
                .toList());
    }

    private void deliver(HistoryWriter target, List<ConsumerRecord<String, byte[]>> records) {
        var ack = new Ack();
        acks.add(ack);
        target.onBatch(records, ack);
    }

    /** A batch's acknowledgment, as the container hands it to the listener. */
    private static final class Ack implements Acknowledgment {

        private boolean acknowledged;

        @Override
        public void acknowledge() {
            acknowledged = true;
        }

        boolean acknowledged() {
            return acknowledged;
        }
    }

    private List<HistoryStore.Stored<DataUnit>> storeUnits(List<HistoryStore.Stored<DataUnit>> units) {
        if (units.isEmpty()) {
            return List.of();
        }
        unitWrites++;
        if (databaseAway) {
            throw new CannotGetJdbcConnectionException("Connection refused");
        }
        if (units.stream().anyMatch(u -> u.event().deviceId().contains("\u0000"))) {
            throw new DataIntegrityViolationException("invalid byte sequence for encoding \"UTF8\": 0x00");
        }
        var conflicts = new ArrayList<HistoryStore.Stored<DataUnit>>();
        for (var u : units) {
            var known = digests.putIfAbsent(u.event().id(), u.uplinkDigest());
            if (known == null) {
                storedUnits.add(u.event().deviceId());
            } else if (!known.equals(u.uplinkDigest())) {
                conflicts.add(u);
            }
        }
        return conflicts;
    }

    private void storeAlarms(List<HistoryStore.Stored<AlarmEvent>> alarms) {
        alarms.forEach(a -> storedAlarms.add(a.event().deviceId()));
    }

    private ConsumerRecord<String, byte[]> unit(String deviceId) {
        return unit(deviceId, 21.0);
    }

    private ConsumerRecord<String, byte[]> unit(String deviceId, double temperature) {
        var unit = new DataUnit(
                Ids.newId(),
                1,
                Ids.newId(),
                "ch",
                "em300th",
                deviceId,
                T0,
                T0.plusMillis(offset),
                T0,
                Map.of("temperature", temperature),
                Map.of());
        return unit(unit, 1L);
    }

    private ConsumerRecord<String, byte[]> unit(DataUnit unit, long uplinkDigest) {
        var record = new ConsumerRecord<>(
                PipelineTopic.DATA_UNITS.topicName(), 0, offset++, unit.deviceId(), EventJson.write(unit));
        UplinkDigest.add(record.headers(), uplinkDigest);
        return record;
    }

    private ConsumerRecord<String, byte[]> alarm(String deviceId) {
        var alarm = new AlarmEvent(
                Ids.newId(),
                1,
                Ids.newId(),
                "r1",
                "hot",
                Severity.MAJOR,
                AlarmState.ACTIVE,
                false,
                "ch",
                "em300th",
                deviceId,
                Ids.newId(),
                Map.of(),
                T0,
                T0,
                null,
                null);
        return new ConsumerRecord<>(PipelineTopic.ALARMS.topicName(), 0, offset++, deviceId, EventJson.write(alarm));
    }

    private ConsumerRecord<String, byte[]> raw(PipelineTopic<?> topic, String value) {
        return new ConsumerRecord<>(topic.topicName(), 0, offset++, "dev-x", value.getBytes(StandardCharsets.UTF_8));
    }
}
