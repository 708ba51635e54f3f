package dev.iotpipeline.kafka.reader;

import java.time.Duration;
import org.springframework.context.SmartLifecycle;

/**
 * Starts a reader of a topic (a registry read whole, a live feed positioned at the end) once the context is built,
 * before the web server opens its port and before Kafka Streams and the listener containers start; a reader not
 * ready within its timeout fails the start. The reader itself is closed with its bean, after all of them stopped.
 */
public final class ReaderLifecycle implements SmartLifecycle {

    /** Earlier than the web server's start (DEFAULT_PHASE - 2048), Kafka Streams and the listener containers. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    /** Starts the reader; false when it was not ready within the timeout. */
    @FunctionalInterface
    public interface Start {
        boolean start(Duration timeout) throws Exception;
    }

    private final String name;
    private final Duration timeout;
    private final Start start;
    private volatile boolean running;

    public ReaderLifecycle(String name, Duration timeout, Start start) {
        this.name = name;
        this.timeout = timeout;
        this.start = start;
    }

    @Override
    public void start() {
        boolean ready;
        try {
            ready = start.start(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted while starting", e);
        } catch (Exception e) {
            throw new IllegalStateException(name + " could not start", e);
        }
        if (!ready) {
            throw new IllegalStateException(name + " was not ready within " + timeout);
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
