package dev.iotpipeline.web.warmup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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

    private final List<Warmup> warmups;
    private final WarmupProperties properties;

    public WarmupRunner(List<Warmup> warmups, WarmupProperties properties) {
        this.warmups = List.copyOf(warmups);
        this.properties = properties;
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
        log.info(
                "Warmed up in {} ms before reporting ready: {}",
                (System.nanoTime() - started) / 1_000_000,
                rounds.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue() + " rounds")
                        .collect(Collectors.joining(", ")));
    }

    /** Last of the runners: whatever else runs at start (topic readers catching up) is done by then. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
