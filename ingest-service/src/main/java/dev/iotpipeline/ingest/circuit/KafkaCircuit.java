package dev.iotpipeline.ingest.circuit;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.BrokerNotAvailableException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A circuit in front of the Kafka producer that opens on the first failures meaning Kafka is unreachable, or when
 * sends stall and the cluster does not answer a probe, refuses at once while open (requests still waiting
 * included), and is closed only by a background probe that got an answer from the cluster.
 */
public final class KafkaCircuit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaCircuit.class);

    /*
     * Resilience4j would let the first request after this wait through as a half-open trial, and that request
     * would hang for max.block.ms against a dead broker; only the probe closes this circuit, so the wait is
     * effectively forever.
     */
    private static final Duration ONLY_THE_PROBE_CLOSES = Duration.ofDays(3650);

    private final CircuitBreaker breaker;
    private final BrokerProbe probe;
    private final Counter refused;
    /** The requests awaiting Kafka's ack, with when each started: refused at once when the circuit opens. */
    private final Map<CompletableFuture<?>, Long> waiting = new ConcurrentHashMap<>();

    /** The checks that run only while requests await Kafka (the stall check, the publisher's deadlines). */
    private final List<WhileAwaiting> watches = new CopyOnWriteArrayList<>();

    /** Open {@link #warmingUp} holds: while any is, a stall alone does not open the circuit. */
    private final AtomicInteger warmupHolds = new AtomicInteger();

    private volatile long lastAckNanos = System.nanoTime();
    private ScheduledExecutorService prober;

    /**
     * @param failuresToOpen consecutive unavailability failures that open the circuit; a success in between
     *         starts the count again, and failures that say nothing about availability are not counted
     */
    public KafkaCircuit(int failuresToOpen, BrokerProbe probe, MeterRegistry registry) {
        this.probe = probe;
        this.breaker = CircuitBreaker.of(
                "kafka",
                CircuitBreakerConfig.custom()
                        // the last N recorded calls all failed = N consecutive failures. Not LOCK_FREE: its window of
                        // one
                        // drops its head on the first record and throws on the second (resilience4j 2.4.0).
                        .slidingWindow(
                                failuresToOpen,
                                failuresToOpen,
                                SlidingWindowType.COUNT_BASED,
                                SlidingWindowSynchronizationStrategy.SYNCHRONIZED)
                        .failureRateThreshold(100)
                        .recordException(KafkaCircuit::meansUnavailable)
                        .ignoreException(error -> !meansUnavailable(error))
                        .waitDurationInOpenState(ONLY_THE_PROBE_CLOSES)
                        .writableStackTraceEnabled(false)
                        .build());
        breaker.getEventPublisher().onStateTransition(event -> {
            switch (event.getStateTransition().getToState()) {
                case OPEN -> {
                    log.warn("Kafka circuit open: refusing uplinks with 503 until the cluster answers a probe");
                    refuseWaiting();
                }
                case CLOSED -> log.info("Kafka circuit closed: the cluster answered, uplinks go to Kafka again");
                default -> log.info("Kafka circuit {}", event.getStateTransition());
            }
        });
        this.refused = Counter.builder("ingest.kafka.circuit.refused")
                .description(
                        "Requests refused with 503 at once, without touching the producer, while the Kafka circuit was open")
                .register(registry);
        Gauge.builder("ingest.kafka.circuit.open", this, c -> c.isOpen() ? 1 : 0)
                .description("1 while the Kafka circuit is open (Kafka unreachable, uplinks refused), 0 while closed")
                .register(registry);
    }

    /** Starts the background probe on one daemon thread; it only talks to the cluster while the circuit is open. */
    public KafkaCircuit startProbing(Duration interval) {
        return startProbing(interval, null);
    }

    /**
     * As {@link #startProbing(Duration)}, and while closed: when a request has waited {@code stallAfter} for its ack
     * and no ack came in that long either, the cluster is probed, and the circuit opens if it does not answer. A
     * broker that dies mid-request is then refused within stallAfter plus the probe's timeout, where waiting for
     * the producer's own timeouts would take seconds. Null: no such watch.
     */
    public synchronized KafkaCircuit startProbing(Duration interval, Duration stallAfter) {
        if (prober == null) {
            prober = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("kafka-circuit-probe").daemon().factory());
            prober.scheduleWithFixedDelay(
                    this::probeIfOpen, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
            if (stallAfter != null) {
                whileAwaiting(
                        prober,
                        Duration.ofMillis(Math.max(10, stallAfter.toMillis() / 5)),
                        () -> probeIfStalled(stallAfter));
            }
        }
        return this;
    }

    /**
     * Runs {@code check} on {@code executor} every {@code every} while any request awaits Kafka, and not at all
     * otherwise: at rest, the stall check and the publisher's deadline sweep woke ingest 35 times a second
     * ({@code docs/benchmarks/idle.md}).
     */
    public void whileAwaiting(ScheduledExecutorService executor, Duration every, Runnable check) {
        watches.add(new WhileAwaiting(executor, every, () -> !waiting.isEmpty(), check));
    }

    /**
     * Refuses {@code request} with {@link BrokerNotAvailableException} should the circuit open before it completes;
     * for a request that {@link #tryAcquire} let through and that now awaits Kafka.
     */
    public void awaiting(CompletableFuture<?> request) {
        waiting.put(request, System.nanoTime());
        request.whenComplete((ignored, error) -> waiting.remove(request));
        if (isOpen()) {
            refuseWaiting();
        }
        watches.forEach(WhileAwaiting::start);
    }

    /**
     * Fails each request awaiting its ack for {@code timeout} or longer with a {@link TimeoutException}, as
     * {@code orTimeout} would have.
     */
    public void expireWaiting(Duration timeout) {
        long now = System.nanoTime();
        long limit = timeout.toNanos();
        waiting.forEach((request, started) -> {
            if (now - started >= limit) {
                request.completeExceptionally(new TimeoutException("no ack within " + timeout.toMillis() + " ms"));
            }
        });
    }

    private void refuseWaiting() {
        for (var request : waiting.keySet()) {
            request.completeExceptionally(
                    new BrokerNotAvailableException("the Kafka circuit opened while the uplink awaited its ack"));
        }
    }

    /** One stall check: a request waiting stallAfter with no ack in that time makes the cluster answer a probe. */
    void probeIfStalled(Duration stallAfter) {
        if (isOpen() || waiting.isEmpty() || warmupHolds.get() > 0) {
            return;
        }
        long now = System.nanoTime();
        long stall = stallAfter.toNanos();
        if (now - lastAckNanos < stall || waiting.values().stream().noneMatch(started -> now - started >= stall)) {
            return;
        }
        try {
            if (!probe.clusterAnswers()) {
                log.warn(
                        "Kafka stopped acknowledging for {} ms and the cluster does not answer", stallAfter.toMillis());
                breaker.transitionToOpenState();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("Kafka circuit stall probe failed: {}", e.toString());
        }
    }

    /**
     * Asks to send to Kafka: {@code true} while the circuit is closed, {@code false} (counted as a fast
     * refusal) while it is open. Every {@code true} must be followed by {@link #succeeded},
     * {@link #failed} or {@link #release}.
     */
    public boolean tryAcquire() {
        if (breaker.tryAcquirePermission()) {
            return true;
        }
        refused.increment();
        return false;
    }

    /** Kafka acknowledged a send that {@link #tryAcquire} let through at {@code startNanos}. */
    public void succeeded(long startNanos) {
        lastAckNanos = System.nanoTime();
        breaker.onSuccess(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** A send failed; it counts towards opening only if the failure means Kafka is unreachable. */
    public void failed(long startNanos, Throwable error) {
        breaker.onError(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS, error);
    }

    /** The permission was not used (the request was refused for another reason before any send). */
    public void release() {
        breaker.releasePermission();
    }

    public boolean isOpen() {
        return breaker.getState() != CircuitBreaker.State.CLOSED;
    }

    /**
     * For the warm-up before readiness: asks the cluster once, as a probe does, ignoring the answer, so that the
     * probe's client is connected before a stall needs it, and holds the stall watch until the hold is closed. On a
     * busy machine the broker can take longer than the probe's timeout to answer right after a start (in a CI run,
     * the broker's own warm-up took 5 s for 3 records): the warm-up's rehearsed uplinks then wait for their acks
     * rather than open the circuit, refuse each other and drop the warm-up with a screenful of warnings. Sends that
     * fail still open it, and a stall found once the hold is closed does too.
     */
    public WarmupHold warmingUp() throws InterruptedException {
        try {
            probe.clusterAnswers();
        } catch (RuntimeException e) {
            log.debug("Kafka circuit probe rehearsal failed: {}", e.toString());
        }
        warmupHolds.incrementAndGet();
        var closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                warmupHolds.decrementAndGet();
            }
        };
    }

    /** Holds the stall watch while a warm-up runs; closing it twice is closing it once. */
    public interface WarmupHold extends AutoCloseable {
        @Override
        void close();
    }

    /** One probe: while open, closes the circuit if the cluster answers. Package-private for tests. */
    void probeIfOpen() {
        if (!isOpen()) {
            return;
        }
        try {
            if (probe.clusterAnswers()) {
                breaker.transitionToClosedState();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // a probe that throws must not end the schedule: the circuit would then stay open for good
            log.warn("Kafka circuit probe failed: {}", e.toString());
        }
    }

    /**
     * Whether a send failure means Kafka cannot take writes now: timeouts (ours, delivery.timeout.ms,
     * max.block.ms waiting for metadata or buffer space), lost connections, missing leaders or replicas. A
     * record that is too large or cannot be serialized says nothing about the broker.
     */
    static boolean meansUnavailable(Throwable error) {
        var cause = error;
        for (int depth = 0; cause != null && depth < 16; depth++, cause = cause.getCause()) {
            if (cause instanceof TimeoutException
                    || cause instanceof RetriableException
                    || cause instanceof BrokerNotAvailableException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized void close() throws Exception {
        if (prober != null) {
            prober.shutdownNow();
            prober.awaitTermination(5, TimeUnit.SECONDS);
        }
        probe.close();
    }
}
