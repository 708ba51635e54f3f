package dev.iotpipeline.notify.history;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.kafka.ForwardingRebalanceListener;
import dev.iotpipeline.kafka.deadletter.Failures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.support.Acknowledgment;

/**
 * Each device's newest data unit since {@code devices} was last written, and the stored batches whose offsets wait
 * for that write: a device heard five times a second has its latest reading moved once a second, not five times.
 *
 * <p>A batch's offsets are acknowledged only once the latest readings it moved are in {@code devices}, so a crash
 * before that replays the batch, whose rows are skipped as stored and move their devices again. Used by the store
 * writer's one consumer thread only: the listener, the container's idle event and its rebalance callbacks.
 */
final class LatestReadings {

    private static final Logger log = LoggerFactory.getLogger(LatestReadings.class);

    /** Which of two data units of a device is its latest reading: last received, then last measured. */
    static final Comparator<DataUnit> NEWEST = Comparator.comparing(DataUnit::receivedAt)
            .thenComparing(DataUnit::measuredAt)
            .thenComparing(DataUnit::id);

    /**
     * Bounds one write: this many devices waiting that were not written in the last half interval are written
     * without waiting for the interval, so thousands of devices heard each second cost a few modest statements a
     * second, not one that stalls the writer and the box. Devices written in the last half interval do not count:
     * a thousand devices heard five times a second would otherwise reach the bound five times a second and each be
     * written five times, which the interval is there to prevent (at 5,000 uplinks/s, about 20 µs of PostgreSQL's
     * CPU per uplink).
     */
    static final int MAX_WAITING_DEVICES = 1_000;

    /** The most devices remembered as recently written; beyond it the oldest are forgotten (and count again). */
    static final int MAX_REMEMBERED_DEVICES = 100_000;

    private final java.util.function.Consumer<Collection<DataUnit>> write;
    private final Duration interval;
    private final LongSupplier nanoTime;
    private final int maxWaitingDevices;
    private final TreeMap<String, DataUnit> newest = new TreeMap<>();
    private final List<Acknowledgment> waiting = new ArrayList<>();
    // Devices written in the last half interval, oldest write first (access order: a write moves its device last).
    private final LinkedHashMap<String, Long> writtenAt = new LinkedHashMap<>(16, 0.75f, true);
    private int notRecentlyWritten;
    private long oldestNanos;

    /**
     * @param write moves each given device's latest reading forward where the given one is newer (one per device,
     *     in key order); throws when it did not, and a transient failure (see {@link Failures}) is thrown on
     * @param interval the longest a stored data unit waits before its device's latest reading is written, under a
     *     steady flow (an idle consumer writes at once, see {@link #whenIdle()})
     */
    LatestReadings(java.util.function.Consumer<Collection<DataUnit>> write, Duration interval, LongSupplier nanoTime) {
        this(write, interval, nanoTime, MAX_WAITING_DEVICES);
    }

    LatestReadings(
            java.util.function.Consumer<Collection<DataUnit>> write,
            Duration interval,
            LongSupplier nanoTime,
            int maxWaitingDevices) {
        this.write = write;
        this.interval = interval;
        this.nanoTime = nanoTime;
        this.maxWaitingDevices = maxWaitingDevices;
    }

    /** Each device's newest of the given units, by {@link #NEWEST}, keyed in the order devices are written in. */
    static TreeMap<String, DataUnit> newestPerDevice(Iterable<DataUnit> units) {
        var newest = new TreeMap<String, DataUnit>();
        units.forEach(unit -> merge(newest, unit));
        return newest;
    }

    private static String key(DataUnit unit) {
        return unit.channel() + '\u0000' + unit.deviceId();
    }

    private static void merge(Map<String, DataUnit> newest, DataUnit unit) {
        merge(newest, key(unit), unit);
    }

    /** True when {@code key} was not waiting yet. */
    private static boolean merge(Map<String, DataUnit> newest, String key, DataUnit unit) {
        var before = newest.get(key);
        if (before == null) {
            newest.put(key, unit);
            return true;
        }
        if (NEWEST.compare(unit, before) > 0) {
            newest.put(key, unit);
        }
        return false;
    }

    /** Units of a batch now in the history (stored now, or before), each of which may be its device's newest. */
    void stored(Collection<DataUnit> units) {
        long now = nanoTime.getAsLong();
        if (newest.isEmpty() && !units.isEmpty()) {
            oldestNanos = now;
        }
        forgetWrittenBefore(now - interval.toNanos() / 2);
        for (var unit : units) {
            var key = key(unit);
            if (merge(newest, key, unit) && !writtenAt.containsKey(key)) {
                notRecentlyWritten++;
            }
        }
    }

    private void forgetWrittenBefore(long nanos) {
        var oldest = writtenAt.entrySet().iterator();
        while (oldest.hasNext()) {
            var entry = oldest.next();
            if (entry.getValue() - nanos >= 0 && writtenAt.size() <= MAX_REMEMBERED_DEVICES) {
                return;
            }
            oldest.remove();
        }
    }

    /**
     * The batch is done; its offsets are acknowledged with the next write of the latest readings, at once when none
     * waits, else once the oldest has waited {@code interval} or too many devices wait. Throws as {@code write} does;
     * nothing is acknowledged then.
     */
    void done(Acknowledgment batch) {
        waiting.add(batch);
        if (newest.isEmpty()
                || notRecentlyWritten >= maxWaitingDevices
                || nanoTime.getAsLong() - oldestNanos >= interval.toNanos()) {
            write();
        }
    }

    /**
     * Before the error handler commits offsets (those of a batch's records before a failed one, and the failed one
     * once dead-lettered), which would cover the batches waiting here: writes what waits, and acknowledges it.
     * Throws as {@code write} does; nothing is acknowledged then.
     */
    void beforeCommit() {
        write();
    }

    /** The consumer found nothing new for a while: a lone uplink's device is not left waiting for the interval. */
    void whenIdle() {
        if (newest.isEmpty() && waiting.isEmpty()) {
            return;
        }
        try {
            write();
        } catch (RuntimeException e) {
            // Nothing was acknowledged: the next batch or idle event tries again.
            log.warn("Latest readings of {} devices not written yet: {}", newest.size(), e.toString());
        }
    }

    /** Writes what waits before the container commits for partitions it gives up, so the next owner replays less. */
    ConsumerAwareRebalanceListener following(ConsumerRebalanceListener delegate) {
        return new ForwardingRebalanceListener(delegate) {

            @Override
            public void onPartitionsRevokedBeforeCommit(
                    Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                try {
                    write();
                } catch (RuntimeException e) {
                    // The waiting batches stay uncommitted, so whoever owns their partitions next stores them again
                    // and moves their devices; what waits here is written later, never backwards.
                    waiting.clear();
                    log.warn("Latest readings not written before a rebalance: {}", e.toString());
                }
                super.onPartitionsRevokedBeforeCommit(consumer, partitions);
            }

            @Override
            public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                // Lost partitions' offsets can no longer be committed by this consumer.
                waiting.clear();
                super.onPartitionsLost(consumer, partitions);
            }
        };
    }

    private void write() {
        if (!newest.isEmpty()) {
            try {
                write.accept(List.copyOf(newest.values()));
            } catch (RuntimeException e) {
                if (Failures.isTransient(e)) {
                    throw e;
                }
                // Their data units are stored, and the columns are the same: a refusal here is no reason to hold the
                // partition or dead-letter a stored record. These devices show an older reading until heard again.
                log.error("Latest readings of {} devices refused by the history store", newest.size(), e);
            }
            long now = nanoTime.getAsLong();
            newest.keySet().forEach(key -> writtenAt.put(key, now));
            newest.clear();
            notRecentlyWritten = 0;
        }
        waiting.forEach(Acknowledgment::acknowledge);
        waiting.clear();
    }
}
