package dev.iotpipeline.notify.live.session;

import dev.iotpipeline.kafka.metrics.HopTimers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Live delivery meters: sessions, subscriptions, messages sent and dropped (by cause), send-buffer depth, and the end-to-end
 * latency from the uplink's arrival at ingest to the WebSocket send, per stream.
 */
public final class LiveMetrics implements SessionSender.Listener {

    private final MeterRegistry registry;
    private final Map<String, Timer> latency = new ConcurrentHashMap<>();
    private final Map<String, Counter> sent = new ConcurrentHashMap<>();
    private final Map<String, Counter> dropped = new ConcurrentHashMap<>();
    private final Map<String, Counter> gaps = new ConcurrentHashMap<>();

    private final AtomicInteger sessions = new AtomicInteger();
    private final Timer written;
    private final AtomicInteger highWater = new AtomicInteger();

    public LiveMetrics(MeterRegistry registry, Supplier<Number> subscriptions) {
        this.registry = registry;
        this.written = new HopTimers(registry).hop("websocket-write");
        registry.gauge("notify.sessions", sessions);
        // Strong references: the suppliers are lambdas nothing else holds, which a weak gauge would lose to GC.
        Gauge.builder("notify.subscriptions", subscriptions, s -> s.get().doubleValue())
                .strongReference(true)
                .register(registry);
        Gauge.builder("notify.send.buffer.high.water", highWater, AtomicInteger::get)
                .description("Most messages ever queued for one session")
                .register(registry);
    }

    public void watchDeepestQueue(Supplier<Number> deepestQueue) {
        Gauge.builder("notify.send.buffer.deepest", deepestQueue, s -> s.get().doubleValue())
                .strongReference(true)
                .description("Messages queued now for the session furthest behind")
                .register(registry);
    }

    @Override
    public void queued(int depth) {
        if (depth > highWater.get()) {
            highWater.accumulateAndGet(depth, Math::max);
        }
    }

    public void sessionOpened() {
        sessions.incrementAndGet();
    }

    public void sessionClosed() {
        sessions.decrementAndGet();
    }

    @Override
    public void sent(String stream, Instant receivedAt) {
        sent.computeIfAbsent(
                        stream,
                        s -> Counter.builder("notify.messages.sent")
                                .tag("stream", s)
                                .register(registry))
                .increment();
        if (receivedAt != null) {
            latency.computeIfAbsent(
                            stream,
                            s -> Timer.builder("notify.delivery.latency")
                                    .tag("stream", s)
                                    .description("Uplink receivedAt at ingest to WebSocket send")
                                    .publishPercentileHistogram()
                                    .minimumExpectedValue(Duration.ofMillis(1))
                                    .maximumExpectedValue(Duration.ofSeconds(30))
                                    .register(registry))
                    .record(Duration.between(receivedAt, Instant.now()));
        }
    }

    /** A since replay started after events retention had deleted, and told its client so. */
    public void replayGap(String stream) {
        gaps.computeIfAbsent(
                        stream,
                        s -> Counter.builder("notify.replay.gaps")
                                .tag("stream", s)
                                .description("since replays that asked for events Kafka no longer holds")
                                .register(registry))
                .increment();
    }

    /** websocket-write: a data message queued for its session to written on the socket. */
    @Override
    public void written(long nanos) {
        written.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void dropped(String cause) {
        dropped.computeIfAbsent(
                        cause,
                        c -> Counter.builder("notify.messages.dropped")
                                .tag("cause", c)
                                .register(registry))
                .increment();
    }
}
