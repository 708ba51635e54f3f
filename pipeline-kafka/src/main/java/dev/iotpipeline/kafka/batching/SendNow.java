package dev.iotpipeline.kafka.batching;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a producer linger under load and still send a lone record at once: {@link #request()} has the producer
 * send everything it holds without waiting out {@code linger.ms}, from a virtual thread of its own, so the caller
 * never blocks on the flush (which waits for the acks, and would wait for a broker that is away).
 *
 * <p>A lingering producer sends one request for what several callers appended within the linger instead of one
 * for each, and the broker's and every consumer's cost follows the requests (5,000 single POSTs/s: ~45 µs of CPU
 * per uplink less, docs/benchmarks/raw/experiments/adaptive-linger.md). A caller that
 * knows nothing else is waiting (no other request in flight, a poll of a record or two) asks for the send now, so
 * at rest nothing waits for the linger. While a flush runs, the producer sends every batch as soon as it has one.
 */
public final class SendNow {

    private static final Logger log = LoggerFactory.getLogger(SendNow.class);

    private final Runnable flush;
    private final Thread.Builder threads;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean pending;

    /** {@code flush} sends what the producer holds and returns once it is acknowledged (or failed). */
    public SendNow(Runnable flush, String name) {
        this.flush = flush;
        this.threads = Thread.ofVirtual().name(name);
    }

    /** Has the producer send what it holds now; returns at once. */
    public void request() {
        pending = true;
        if (running.compareAndSet(false, true)) {
            threads.start(this::run);
        }
    }

    private void run() {
        do {
            try {
                while (pending) {
                    pending = false;
                    flush.run();
                }
            } catch (RuntimeException e) {
                // The sends themselves report their failures to their callers; this one only hurried them.
                log.debug("Flush failed: {}", e.toString());
            } finally {
                running.set(false);
            }
            // A request that came after the last flush began, and saw this one still running, is served here.
        } while (pending && running.compareAndSet(false, true));
    }
}
