package dev.iotpipeline.web.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;

/**
 * Runs the service's {@link Warmup}s after its context started and before it reports ready: Spring Boot moves
 * readiness to ACCEPTING_TRAFFIC only once every runner has returned. A warm-up that fails is dropped with a
 * warning; it never stops the service from starting. Warm-ups that hold resources (connections) are closed after.
 */
public final class WarmupRunner implements ApplicationRunner, Ordered {

    private static final Logger log = LoggerFactory.getLogger(WarmupRunner.class);

    /** How often the compilers' work is read while settling, and the share of it they may still be busy. */
    static final Duration SETTLE_WINDOW = Duration.ofMillis(100);

    static final int SETTLED_PERCENT = 10;

    private final List<Warmup> warmups;
    private final WarmupProperties properties;
    private final LongSupplier compilationMillis;
    private final Runnable collector;

    public WarmupRunner(List<Warmup> warmups, WarmupProperties properties) {
        this(warmups, properties, CompilerThreads.cpuMillis(), System::gc);
    }

    /**
     * @param compilationMillis the JIT compilers' CPU time so far (ms, all their threads), or null where not known
     * @param collector a full collection of the heap
     */
    WarmupRunner(
            List<Warmup> warmups, WarmupProperties properties, LongSupplier compilationMillis, Runnable collector) {
        this.warmups = List.copyOf(warmups);
        this.properties = properties;
        this.compilationMillis = compilationMillis;
        this.collector = collector;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!properties.enabled() || warmups.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        long deadline = started + properties.maxTime().toNanos();
        var active = new ArrayList<>(warmups);
        var rounds = new LinkedHashMap<String, Integer>();
        warmups.forEach(warmup -> rounds.put(warmup.name(), 0));
        // In turns, so that a time budget that ends early leaves every path about as warm as the others.
        for (int round = 0; round < properties.rounds() && !active.isEmpty() && System.nanoTime() < deadline; round++) {
            for (var iterator = active.iterator(); iterator.hasNext(); ) {
                var warmup = iterator.next();
                try {
                    warmup.exercise(round);
                    rounds.merge(warmup.name(), 1, Integer::sum);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    log.warn("Warm-up {} dropped after {} rounds: {}", warmup.name(), round, e.toString());
                    iterator.remove();
                }
            }
        }
        for (var warmup : warmups) {
            if (warmup instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    log.warn("Warm-up {} did not close: {}", warmup.name(), e.toString());
                }
            }
        }
        long settled = settle();
        long collected = collect();
        log.info(
                "Warmed up in {} ms (compilers settled in {} ms{}) before reporting ready: {}",
                (System.nanoTime() - started) / 1_000_000,
                settled,
                collected < 0 ? "" : ", heap collected in " + collected + " ms",
                rounds.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue() + " rounds")
                        .collect(Collectors.joining(", ")));
    }

    /**
     * Waits until the JIT compilers are busy less than {@link #SETTLED_PERCENT} % of a {@link #SETTLE_WINDOW}, at
     * most the settle time: the rounds leave a queue of methods for the optimizing compiler, and compiled after
     * readiness they take the cores from the first requests (a cold run's first seconds measured the services'
     * compilers at most of both cores). Returns the time it waited, in ms.
     */
    private long settle() {
        if (compilationMillis == null || properties.settleMaxTime().isZero()) {
            return 0;
        }
        long started = System.nanoTime();
        long deadline = started + properties.settleMaxTime().toNanos();
        long window = SETTLE_WINDOW.toMillis();
        long before = compilationMillis.getAsLong();
        try {
            while (System.nanoTime() < deadline) {
                Thread.sleep(window);
                long now = compilationMillis.getAsLong();
                if ((now - before) * 100 < window * SETTLED_PERCENT) {
                    break;
                }
                before = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (System.nanoTime() - started) / 1_000_000;
    }

    /**
     * One full collection, unless turned off: what the rounds left live (Tomcat's processors and buffers for a burst of
     * connections, caches, the warm-up's own leftovers) is promoted and compacted now rather than copied by the first
     * young collections under load, which paused a cold in-JVM stack 37-119 ms a few seconds into its first load and
     * 23-52 ms once or twice after (docs/benchmarks/raw/experiments/warmup-collect.md). Returns the time it took, in ms,
     * or -1 when turned off.
     */
    private long collect() {
        if (!properties.collect()) {
            return -1;
        }
        long started = System.nanoTime();
        collector.run();
        return (System.nanoTime() - started) / 1_000_000;
    }

    /** Last of the runners: whatever else runs at start (topic readers catching up) is done by then. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
