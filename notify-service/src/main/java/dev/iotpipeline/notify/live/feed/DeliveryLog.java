package dev.iotpipeline.notify.live.feed;

import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The order in which this instance's feed dispatched the latest events of one stream. Every session of the
 * instance received events in this order, so the id a client saw last pins, for every partition, the offset
 * it had received up to: the exact point to resume from. Kept as primitive arrays in a ring (about 28 bytes
 * per event) and searched from the newest end, where the ids of reconnecting clients are.
 */
public final class DeliveryLog {

    private final ReentrantLock lock = new ReentrantLock();
    private final long[] msb;
    private final long[] lsb;
    private final int[] partitions;
    private final long[] offsets;
    // Per partition, the last offset dispatched before the oldest entry still in the ring.
    private long[] baseline = new long[0];
    private long appended;

    public DeliveryLog(int capacity) {
        msb = new long[capacity];
        lsb = new long[capacity];
        partitions = new int[capacity];
        offsets = new long[capacity];
    }

    /** Sets where the feed started reading: offset {@code start} is the first one it dispatches. */
    public void started(int partition, long start) {
        lock.lock();
        try {
            grow(partition);
            baseline[partition] = Math.max(baseline[partition], start - 1);
        } finally {
            lock.unlock();
        }
    }

    public void append(UUID id, int partition, long offset) {
        lock.lock();
        try {
            grow(partition);
            int slot = (int) (appended % msb.length);
            if (appended >= msb.length) {
                grow(partitions[slot]);
                baseline[partitions[slot]] = offsets[slot];
            }
            msb[slot] = id.getMostSignificantBits();
            lsb[slot] = id.getLeastSignificantBits();
            partitions[slot] = partition;
            offsets[slot] = offset;
            appended++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * For each partition, the last offset dispatched up to and including the event {@code id}, or empty when
     * the event is not in the window (older than it, or published before this instance started).
     */
    public Optional<long[]> positionsAt(UUID id) {
        lock.lock();
        try {
            long oldest = Math.max(0, appended - msb.length);
            for (long n = appended - 1; n >= oldest; n--) {
                int slot = (int) (n % msb.length);
                if (msb[slot] == id.getMostSignificantBits() && lsb[slot] == id.getLeastSignificantBits()) {
                    return Optional.of(positionsThrough(n, oldest));
                }
            }
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    private long[] positionsThrough(long last, long oldest) {
        var positions = Arrays.copyOf(baseline, baseline.length);
        var known = new boolean[positions.length];
        int missing = positions.length;
        for (long n = last; n >= oldest && missing > 0; n--) {
            int slot = (int) (n % msb.length);
            int p = partitions[slot];
            if (p < known.length && !known[p]) {
                known[p] = true;
                positions[p] = offsets[slot];
                missing--;
            }
        }
        return positions;
    }

    private void grow(int partition) {
        if (partition >= baseline.length) {
            int from = baseline.length;
            baseline = Arrays.copyOf(baseline, partition + 1);
            Arrays.fill(baseline, from, baseline.length, -1L);
        }
    }
}
