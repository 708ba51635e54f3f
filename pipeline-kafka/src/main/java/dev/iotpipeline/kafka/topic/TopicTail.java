package dev.iotpipeline.kafka.topic;

import dev.iotpipeline.events.Ids;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every partition of one topic on a thread of its own, without a consumer group, so that each
 * instance of a service sees the whole topic: used for compacted registries (from the beginning) and
 * for live fan-out (from the end).
 */
public final class TopicTail implements AutoCloseable {

    /** Where reading starts. */
    public enum Start {
        BEGINNING,
        END
    }

    /**
     * How long a tail waits before it reads again after a failed read, doubling while reads keep failing with
     * nothing read between them, up to {@link #MAX_RETRY}.
     */
    static final Duration RETRY = Duration.ofSeconds(1);

    static final Duration MAX_RETRY = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(TopicTail.class);

    private final String topic;
    private final Start start;
    private final Consumer<ConsumerRecord<String, byte[]>> handler;
    private final TopicReader reader;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private final CountDownLatch closing = new CountDownLatch(1);
    // Only the tail's thread reads and writes it.
    private boolean readSinceFailure;
    private volatile Map<Integer, Long> startPositions = Map.of();

    /**
     * A tail of {@code topic} with the connection settings of {@code clientProperties} (a service's consumer
     * configuration, see {@link ReaderProperties}).
     */
    public TopicTail(
            Map<String, Object> clientProperties,
            String topic,
            Start start,
            Consumer<ConsumerRecord<String, byte[]>> handler) {
        this(
                TopicReader.open(clientProperties, "tail-" + topic + "-" + Ids.newId(), topic, Map.of()),
                topic,
                start,
                handler);
    }

    TopicTail(TopicReader reader, String topic, Start start, Consumer<ConsumerRecord<String, byte[]>> handler) {
        this.topic = topic;
        this.start = start;
        this.handler = handler;
        this.reader = reader;
        this.thread = Thread.ofPlatform().name("tail-" + topic).daemon().unstarted(this::run);
    }

    /**
     * Hands every record the topic holds now to {@code handler}, on this thread's behalf, then stops: the
     * catch-up half of a tail, for checks and tools that read a topic once.
     */
    public static void readToEnd(
            Map<String, Object> clientProperties,
            String topic,
            Duration timeout,
            Consumer<ConsumerRecord<String, byte[]>> handler)
            throws InterruptedException {
        try (var tail = new TopicTail(clientProperties, topic, Start.BEGINNING, handler).startReading()) {
            if (!tail.awaitCaughtUp(timeout)) {
                throw new IllegalStateException("could not read " + topic + " to its end within " + timeout);
            }
        }
    }

    public TopicTail startReading() {
        thread.start();
        return this;
    }

    /** True once every record that existed when reading started has been handed to the handler. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The first offset read in each partition; set before {@link #awaitCaughtUp} returns true. */
    public Map<Integer, Long> startPositions() {
        return startPositions;
    }

    public boolean isCaughtUp() {
        return caughtUp.getCount() == 0;
    }

    private void run() {
        try {
            while (!reader.assign()) {
                if (!running) {
                    return;
                }
                log.info("Waiting for topic {} to exist", topic);
            }
            if (start == Start.END) {
                reader.seekToEnd();
            } else {
                reader.seekToBeginning();
            }
            startPositions = Map.copyOf(reader.positions());
            follow();
        } catch (WakeupException stopping) {
            // close() woke us up
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Reading {} stopped", topic, e);
        } finally {
            reader.close();
        }
    }

    /**
     * Follows the topic from where the reader is, and reads on after a read that failed (the broker refused a fetch,
     * say) instead of ending: a tail that ended would leave its service running on a stale registry or a silent live
     * feed, with nothing but a log line to show for it.
     */
    private void follow() throws InterruptedException {
        int failures = 0;
        while (running) {
            try {
                reader.follow(this::handle, caughtUp::countDown);
                return;
            } catch (WakeupException stopping) {
                throw stopping;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                failures = readSinceFailure ? 1 : failures + 1;
                readSinceFailure = false;
                var delay = retryDelay(failures);
                log.warn("Reading {} failed, reading on in {}: {}", topic, delay, e.toString());
                if (closing.await(delay.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        }
    }

    /** The wait after the {@code failures}-th failed read in a row: doubling from {@link #RETRY}. */
    static Duration retryDelay(int failures) {
        var delay = RETRY.multipliedBy(1L << Math.min(16, Math.max(0, failures - 1)));
        return delay.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : delay;
    }

    private boolean handle(ConsumerRecord<String, byte[]> record) {
        readSinceFailure = true;
        try {
            handler.accept(record);
        } catch (RuntimeException e) {
            // One bad record must not stop every later one from being seen.
            log.warn("Skipping {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.toString());
        }
        return true;
    }

    @Override
    public void close() {
        running = false;
        closing.countDown();
        reader.stop();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
