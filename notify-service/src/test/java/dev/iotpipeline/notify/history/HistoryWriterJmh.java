package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.AlarmEvent;
import dev.iotpipeline.events.AlarmState;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Severity;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JMH benchmark of the history writer's pure batch preparation: a poll of data-units and alarms records parsed, checked and split into the two upserts, the database left out. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HistoryWriterJmh {

    /** Records per batch: 95 data units and 5 alarms, a busy but ordinary poll (max-poll-records is 1,000). */
    static final int BATCH = 100;

    HistoryWriter writer;
    List<ConsumerRecord<String, byte[]>> batch;
    /** What the writer handed to the two upserts in the last call. */
    List<HistoryStore.Stored<DataUnit>> units = List.of();

    List<HistoryStore.Stored<AlarmEvent>> alarms = List.of();

    int latestCount;

    @Setup
    public void setUp() {
        writer = new HistoryWriter(
                rows -> {
                    units = rows;
                    return List.of();
                },
                rows -> alarms = rows,
                (record, cause) -> {},
                // Interval 0: each batch's devices written at once, as the per-batch work it measures was before.
                new LatestReadings(latest -> latestCount = latest.size(), Duration.ZERO, System::nanoTime));
        batch = new ArrayList<>(BATCH);
        var now = Instant.now();
        for (int i = 0; i < BATCH; i++) {
            var device = "dev-" + (i % 20);
            if (i % 20 == 19) {
                var alarmId = Ids.newId();
                var alarm = new AlarmEvent(
                        Ids.derive(alarmId, "raised"),
                        AlarmEvent.SCHEMA_VERSION,
                        alarmId,
                        "hot",
                        "hot",
                        Severity.MAJOR,
                        AlarmState.ACTIVE,
                        false,
                        "irrigation",
                        "em300th",
                        device,
                        Ids.newId(),
                        Map.of("temperature", 30.8),
                        now,
                        now,
                        null,
                        null);
                batch.add(record(
                        PipelineTopic.ALARMS.topicName(),
                        i,
                        device,
                        PipelineTopic.ALARMS
                                .valueSerde()
                                .serializer()
                                .serialize(PipelineTopic.ALARMS.topicName(), alarm)));
            } else {
                var unit = new DataUnit(
                        Ids.newId(),
                        DataUnit.SCHEMA_VERSION,
                        Ids.newId(),
                        "irrigation",
                        "em300th",
                        device,
                        now,
                        now,
                        now,
                        Map.of("temperature", 20.0 + i % 10, "humidity", 50.5, "battery", 92.0),
                        Map.of("network", Map.of("networkServer", "tts", "rssi", -35, "snr", 5, "gateways", 1)));
                batch.add(record(
                        PipelineTopic.DATA_UNITS.topicName(),
                        i,
                        device,
                        PipelineTopic.DATA_UNITS
                                .valueSerde()
                                .serializer()
                                .serialize(PipelineTopic.DATA_UNITS.topicName(), unit)));
            }
        }
    }

    /** HistoryWriter.onBatch with upserts that only keep their rows; the score is per record. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int prepareBatch() {
        writer.onBatch(batch, () -> {});
        return units.size() + alarms.size();
    }

    private static ConsumerRecord<String, byte[]> record(String topic, long offset, String key, byte[] value) {
        return new ConsumerRecord<>(topic, 0, offset, key, value);
    }
}
