package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.DeadLetterHeaders;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.kafka.deadletter.Failures;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * Writes data units and alarms to PostgreSQL in batches. Offsets are committed after the listener returns,
 * so only once the batch is durable. A failure names its record with {@link BatchListenerFailedException}:
 * the error handler commits the records before it (all stored), then waits and retries (database away) or
 * dead-letters that one record (it can never be stored), and the rest of the batch comes again.
 */
class HistoryWriter {

    private final Consumer<List<HistoryStore.Stored<DataUnit>>> units;
    private final Consumer<List<HistoryStore.Stored<AlarmEvent>>> alarms;

    /** Takes the two writes of {@link HistoryStore}; each is one idempotent batch upsert. */
    HistoryWriter(Consumer<List<HistoryStore.Stored<DataUnit>>> units,
            Consumer<List<HistoryStore.Stored<AlarmEvent>>> alarms) {
        this.units = units;
        this.alarms = alarms;
    }

    /** One record of the batch, parsed, at its index in the batch. */
    private record Row(int index, HistoryStore.Stored<DataUnit> unit, HistoryStore.Stored<AlarmEvent> alarm) {
    }

    @KafkaListener(id = "notify-store", batch = "true", topics = {
            "#{T(dev.iotpipeline.events.PipelineTopic).DATA_UNITS.topicName()}",
            "#{T(dev.iotpipeline.events.PipelineTopic).ALARMS.topicName()}"})
    void onBatch(List<ConsumerRecord<String, byte[]>> records) {
        var rows = new ArrayList<Row>(records.size());
        for (int i = 0; i < records.size(); i++) {
            try {
                rows.add(parse(i, records.get(i)));
            } catch (RuntimeException e) {
                // Whatever parsed before it is stored first, so committing up to it loses nothing.
                store(rows);
                throw new BatchListenerFailedException("Not an event: " + describe(records.get(i)),
                        new UnprocessableRecordException(DeadLetterHeaders.CAUSE_MALFORMED_EVENT,
                                "not a " + expectedType(records.get(i)) + ": " + e.getMessage(), e), i);
            }
        }
        store(rows);
    }

    private void store(List<Row> rows) {
        if (rows.isEmpty()) {
            return;
        }
        try {
            write(rows);
        } catch (RuntimeException e) {
            if (Failures.isTransient(e)) {
                throw new BatchListenerFailedException("History store unavailable", e, rows.getFirst().index());
            }
            storeOneByOne(rows);
        }
    }

    /** The batch was refused for good: find the row that is refused alone; those before it are then stored. */
    private void storeOneByOne(List<Row> rows) {
        for (var row : rows) {
            try {
                write(List.of(row));
            } catch (RuntimeException e) {
                throw new BatchListenerFailedException("History store refused a row", Failures.isTransient(e) ? e
                        : new UnprocessableRecordException(DeadLetterHeaders.CAUSE_REJECTED_BY_STORE,
                                "refused by the history store: " + e.getMessage(), e), row.index());
            }
        }
    }

    private void write(List<Row> rows) {
        var unitRows = rows.stream().flatMap(r -> Stream.ofNullable(r.unit())).toList();
        var alarmRows = rows.stream().flatMap(r -> Stream.ofNullable(r.alarm())).toList();
        units.accept(unitRows);
        alarms.accept(alarmRows);
    }

    private static Row parse(int index, ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            throw new IllegalArgumentException("no value");
        }
        var json = new String(record.value(), StandardCharsets.UTF_8);
        if (isDataUnit(record)) {
            var unit = PipelineTopic.DATA_UNITS.read(record.value());
            require(unit.id(), "id");
            require(unit.uplinkId(), "uplinkId");
            require(unit.channel(), "channel");
            require(unit.deviceType(), "deviceType");
            require(unit.deviceId(), "deviceId");
            require(unit.measuredAt(), "measuredAt");
            require(unit.receivedAt(), "receivedAt");
            return new Row(index, new HistoryStore.Stored<>(unit, json), null);
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
        return new Row(index, null, new HistoryStore.Stored<>(alarm, json));
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
