package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.notify.live.feed.LiveEvent;
import dev.iotpipeline.notify.live.feed.LiveStream;
import dev.iotpipeline.web.warmup.Warmup;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Notify's hot paths before readiness: data-units records parsed as the live feed and the store writer parse them,
 * and every fifth round a batch written to PostgreSQL by the store writer's own statements in a transaction that is
 * rolled back, so the pool's connections, the JDBC driver and the statements are warm and no row stays.
 */
final class HistoryWarmup implements Warmup {

    private static final int BATCH = 10;

    private final HistoryStore store;
    private final TransactionTemplate transactions;

    HistoryWarmup(HistoryStore store, TransactionTemplate transactions) {
        this.store = store;
        this.transactions = transactions;
    }

    @Override
    public String name() {
        return "notify";
    }

    @Override
    public void exercise(int round) {
        var batch = new ArrayList<HistoryStore.Stored<DataUnit>>(BATCH);
        // As the writer sees them: every other stored batch of ids ingest minted (copied without the lookup), the
        // others of ids senders named (looked up, with their digests).
        boolean minted = round / 5 % 2 == 1;
        for (int i = 0; i < BATCH; i++) {
            int n = round * BATCH + i;
            var bytes = EventJson.write(unit(n));
            LiveEvent.of(
                    LiveStream.DATA_UNITS,
                    new ConsumerRecord<>(PipelineTopic.DATA_UNITS.topicName(), 0, n, "warmup-" + n % 1000, bytes));
            batch.add(new HistoryStore.Stored<>(
                    PipelineTopic.DATA_UNITS.read(bytes), null, minted ? null : (long) n, minted));
        }
        if (round % 5 == 0) {
            transactions.executeWithoutResult(status -> {
                store.storeHistory(batch);
                store.moveLatest(batch.stream().map(HistoryStore.Stored::event).toList());
                status.setRollbackOnly();
            });
        }
    }

    private static DataUnit unit(int n) {
        var now = Instant.now();
        return new DataUnit(
                new UUID(0x7761726dL, n),
                DataUnit.SCHEMA_VERSION,
                new UUID(0x7570L, n),
                "warmup",
                "em300th",
                "warmup-" + n % 1000,
                now,
                now,
                now,
                Map.of("temperature", 21.5 + n % 10, "humidity", 40.0 + n % 7, "battery", 3.6),
                Map.of());
    }
}
