package dev.iotpipeline.kafka.batching;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Counts what a hop sends per second, cheaply enough for every request: the larger of the second under way so far
 * and the last whole one, so a rise shows at once and a fall after a second.
 *
 * <p>A producer that lingers trades latency for CPU: at thousands of uplinks a second one produce request for many
 * callers saves more CPU than the linger costs anyone, while at a few hundred (500 devices posting every second,
 * together) the linger makes each wave wait (docs/benchmarks/raw/experiments/no-linger-waves.md); {@link SendNowRule}
 * can send at once below a rate.
 */
public final class RecentRate {

    private static final long SECOND = 1_000_000_000L;

    private final LongSupplier nanoTime;
    private final AtomicLong windowStart;
    private final AtomicLong current = new AtomicLong();
    private volatile long previous;

    public RecentRate() {
        this(System::nanoTime);
    }

    RecentRate(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.windowStart = new AtomicLong(nanoTime.getAsLong());
    }

    /** Counts {@code count} items now and returns how many came in the last second, these included. */
    public long add(int count) {
        long now = nanoTime.getAsLong();
        long start = windowStart.get();
        long elapsed = now - start;
        if (elapsed >= SECOND && windowStart.compareAndSet(start, now)) {
            long last = current.getAndSet(0);
            // A second with nothing sent in it came between: the one before says nothing of now.
            previous = elapsed < 2 * SECOND ? last : 0;
        }
        return Math.max(current.addAndGet(count), previous);
    }
}
