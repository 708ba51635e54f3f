package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.Failures;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import dev.iotpipeline.kafka.topic.MintedId;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.support.Acknowledgment;

/**
 * Writes data units and alarms to PostgreSQL in batches. A batch's offsets are acknowledged once it is durable and
 * its devices' latest readings are written ({@link LatestReadings}, at most once an interval). A failure names its
 * record with {@link BatchListenerFailedException}, after the latest readings waiting are written (the error handler
 * commits offsets that cover them):
 * the error handler commits the records before it (all stored), then waits and retries (database away) or
 * dead-letters that one record (it can never be stored), and the rest of the batch comes again. Data units
 * refused as conflicting retries (their id stored already for a different uplink) are dead-lettered by the same
 * recoverer before the batch returns, all of a batch at once, so a conflict costs no redelivery.
 */
class HistoryWriter {

    /** The listener's id, and its container's. */
    static final String ID = "notify-store";

    private final Function<List<HistoryStore.Stored<DataUnit>>, List<HistoryStore.Stored<DataUnit>>> units;
    private final Consumer<List<HistoryStore.Stored<AlarmEvent>>> alarms;
    private final BiConsumer<ConsumerRecord<?, ?>, Exception> deadLetters;
    private final LatestReadings latest;
    private final Linger linger;

    /**
     * A pause of {@code pause} after a stored batch of fewer than {@code below} records, before the next poll: under a
     * steady flow the next transaction then takes what arrived meanwhile instead of one data unit (a commit and its
     * WAL flush per uplink at a few hundred a second), while a backlog comes in full batches without pauses and a
     * data unit that arrives while the consumer waits in its poll is written at once. Live delivery has its own
     * reader and is never held. Spring Kafka's {@code idleBetweenPolls} would pause after full batches too.
     */
    record Linger(Duration pause, int below) {

        static final Linger NONE = new Linger(Duration.ZERO, 0);

        void after(int batchSize) {
            if (batchSize >= below || pause.isZero()) {
                return;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Takes the two writes of {@link HistoryStore}; each is one idempotent batch upsert, and the data-unit write
     * (history rows only: the units it does not refuse go to {@code latest}) answers the units it refused as
     * conflicting retries, which go to {@code deadLetters} (the error handler's recoverer, which returns once the
     * dead letter is acknowledged).
     */
    HistoryWriter(
            Function<List<HistoryStore.Stored<DataUnit>>, List<HistoryStore.Stored<DataUnit>>> units,
            Consumer<List<HistoryStore.Stored<AlarmEvent>>> alarms,
            BiConsumer<ConsumerRecord<?, ?>, Exception> deadLetters,
            LatestReadings latest) {
        this(units, alarms, deadLetters, latest, Linger.NONE);
    }

    HistoryWriter(
            Function<List<HistoryStore.Stored<DataUnit>>, List<HistoryStore.Stored<DataUnit>>> units,
            Consumer<List<HistoryStore.Stored<AlarmEvent>>> alarms,
            BiConsumer<ConsumerRecord<?, ?>, Exception> deadLetters,
            LatestReadings latest,
            Linger linger) {
        this.units = units;
        this.alarms = alarms;
        this.deadLetters = deadLetters;
        this.latest = latest;
        this.linger = linger;
    }

    /** One record of the batch, parsed, at its index in the batch. */
    private record Row(
            int index,
            ConsumerRecord<String, byte[]> record,
            HistoryStore.Stored<DataUnit> unit,
            HistoryStore.Stored<AlarmEvent> alarm) {}

    @KafkaListener(
            id = ID,
            batch = "true",
            topics = {
                "#{T(dev.iotpipeline.kafka.topic.PipelineTopic).DATA_UNITS.topicName()}",
                "#{T(dev.iotpipeline.kafka.topic.PipelineTopic).ALARMS.topicName()}"
            },
            containerPostProcessor = "storeWriterContainer")
    void onBatch(List<ConsumerRecord<String, byte[]>> records, Acknowledgment ack) {
        var rows = new ArrayList<Row>(records.size());
        for (int i = 0; i < records.size(); i++) {
            try {
                rows.add(parse(i, records.get(i)));
            } catch (RuntimeException e) {
                // Whatever parsed before it is stored first, so committing up to it loses nothing.
                store(rows);
                throw failed(
                        "Not an event: " + describe(records.get(i)),
                        new UnprocessableRecordException(
                                DeadLetterHeaders.CAUSE_MALFORMED_EVENT,
                                "not a " + expectedType(records.get(i)) + ": " + e.getMessage(),
                                e),
                        i);
            }
        }
        store(rows);
        try {
            latest.done(ack);
        } catch (RuntimeException e) {
            throw new BatchListenerFailedException("Latest readings not written", e, 0);
        }
        linger.after(records.size());
    }

    /**
     * The batch fails from {@code index}; the error handler commits what lies before it (and the record there once
     * dead-lettered), so the latest readings waiting are written first. If they cannot be, the batch fails from its
     * start instead, which commits nothing.
     */
    private BatchListenerFailedException failed(String message, Throwable cause, int index) {
        try {
            latest.beforeCommit();
        } catch (RuntimeException e) {
            return new BatchListenerFailedException("Latest readings not written", e, 0);
        }
        return new BatchListenerFailedException(message, cause, index);
    }

    private void store(List<Row> rows) {
        if (rows.isEmpty()) {
            return;
        }
        List<HistoryStore.Stored<DataUnit>> conflicts;
        try {
            conflicts = write(rows);
        } catch (RuntimeException e) {
            if (Failures.isTransient(e)) {
                throw failed("History store unavailable", e, rows.getFirst().index());
            }
            storeOneByOne(rows);
            return;
        }
        // Before the dead letters: a failed one commits the rows before it, whose devices must not be left behind.
        stored(rows, conflicts);
        deadLetterConflicts(rows, conflicts);
    }

    /** The units of {@code rows} now in the history, stored now or before, may each be their device's latest. */
    private void stored(List<Row> rows, List<HistoryStore.Stored<DataUnit>> conflicts) {
        var units = rows.stream().flatMap(r -> Stream.ofNullable(r.unit())).toList();
        latest.stored(DataUnitWrites.notRefused(units, conflicts));
    }

    /**
     * Everything else of the batch is stored; each conflicting row becomes its dead letter now. A dead letter that
     * Kafka does not take fails the batch from that row: the rows before it are done, the rest comes again (stored
     * already, so skipped; conflicts found again).
     */
    private void deadLetterConflicts(List<Row> rows, List<HistoryStore.Stored<DataUnit>> conflicts) {
        if (conflicts.isEmpty()) {
            return;
        }
        for (var row : rows) {
            if (row.unit() == null || conflicts.stream().noneMatch(c -> c == row.unit())) {
                continue;
            }
            var unit = row.unit().event();
            var conflict = new UnprocessableRecordException(
                    DeadLetterHeaders.CAUSE_IDEMPOTENCY_CONFLICT,
                    "data unit "
                            + unit.id() + " of uplink " + unit.uplinkId()
                            + " is stored already from a different uplink of"
                            + " device '" + unit.deviceId() + "' in channel '" + unit.channel()
                            + "': its idempotency key was"
                            + " reused with another payload, port, device type or measuredAt",
                    null);
            try {
                deadLetters.accept(row.record(), conflict);
            } catch (RuntimeException e) {
                throw failed("Dead letter of a conflicting retry not written", e, row.index());
            }
        }
    }

    /** The batch was refused for good: find the row that is refused alone; those before it are then stored. */
    private void storeOneByOne(List<Row> rows) {
        for (var row : rows) {
            List<HistoryStore.Stored<DataUnit>> conflicts;
            try {
                conflicts = write(List.of(row));
            } catch (RuntimeException e) {
                throw failed(
                        "History store refused a row",
                        Failures.isTransient(e)
                                ? e
                                : new UnprocessableRecordException(
                                        DeadLetterHeaders.CAUSE_REJECTED_BY_STORE,
                                        "refused by the history store: " + e.getMessage(),
                                        e),
                        row.index());
            }
            stored(List.of(row), conflicts);
            deadLetterConflicts(List.of(row), conflicts);
        }
    }

    private List<HistoryStore.Stored<DataUnit>> write(List<Row> rows) {
        var unitRows = rows.stream().flatMap(r -> Stream.ofNullable(r.unit())).toList();
        var alarmRows = rows.stream().flatMap(r -> Stream.ofNullable(r.alarm())).toList();
        var conflicts = unitRows.isEmpty() ? List.<HistoryStore.Stored<DataUnit>>of() : units.apply(unitRows);
        alarms.accept(alarmRows);
        return conflicts;
    }

    private static Row parse(int index, ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            throw new IllegalArgumentException("no value");
        }
        if (isDataUnit(record)) {
            var unit = PipelineTopic.DATA_UNITS.read(record.value());
            require(unit.id(), "id");
            require(unit.uplinkId(), "uplinkId");
            require(unit.channel(), "channel");
            require(unit.deviceType(), "deviceType");
            require(unit.deviceId(), "deviceId");
            require(unit.measuredAt(), "measuredAt");
            require(unit.receivedAt(), "receivedAt");
            return new Row(
                    index,
                    record,
                    // No JSON text: a data unit's row is its fields, and decoding the text was a cost per unit.
                    new HistoryStore.Stored<>(
                            unit, null, UplinkDigest.read(record.headers()), MintedId.isMarked(record.headers())),
                    null);
        }
        var alarm = PipelineTopic.ALARMS.read(record.value());
        require(alarm.id(), "id");
        require(alarm.alarmId(), "alarmId");
        require(alarm.ruleId(), "ruleId");
        require(alarm.severity(), "severity");
        require(alarm.state(), "state");
        require(alarm.channel(), "channel");
        require(alarm.deviceId(), "deviceId");
        require(alarm.raisedAt(), "raisedAt");
        return new Row(
                index,
                record,
                null,
                new HistoryStore.Stored<>(alarm, new String(record.value(), StandardCharsets.UTF_8)));
    }

    /** The columns behind these fields are NOT NULL; a record without one is malformed, not refused. */
    private static void require(Object field, String name) {
        if (field == null) {
            throw new IllegalArgumentException("missing " + name);
        }
    }

    private static boolean isDataUnit(ConsumerRecord<?, ?> record) {
        return record.topic().equals(PipelineTopic.DATA_UNITS.topicName());
    }

    private static String expectedType(ConsumerRecord<?, ?> record) {
        return isDataUnit(record) ? "DataUnit" : "AlarmEvent";
    }

    private static String describe(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }
}
