package dev.iotpipeline.ingest.circuit;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/** A check repeated every period while requests await Kafka, and not scheduled at all while none does. */
final class WhileAwaiting {

    private final ScheduledExecutorService executor;
    private final long everyNanos;
    private final BooleanSupplier awaiting;
    private final Runnable check;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    WhileAwaiting(ScheduledExecutorService executor, Duration every, BooleanSupplier awaiting, Runnable check) {
        this.executor = executor;
        this.everyNanos = every.toNanos();
        this.awaiting = awaiting;
        this.check = check;
    }

    /** A request began to await Kafka: the check runs one period from now, unless a run is already scheduled. */
    void start() {
        if (scheduled.get() || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.schedule(this::run, everyNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            scheduled.set(false);
        }
    }

    private void run() {
        try {
            check.run();
        } finally {
            scheduled.set(false);
            // A request that began to wait while the check ran found it scheduled and left the next run to it.
            if (awaiting.getAsBoolean()) {
                start();
            }
        }
    }
}
