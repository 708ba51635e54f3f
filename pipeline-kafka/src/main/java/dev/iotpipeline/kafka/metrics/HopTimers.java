package dev.iotpipeline.kafka.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The latency of each hop of the data path as one timer, {@code pipeline.hop.latency{hop}}, with percentiles a
 * benchmark can read straight from {@code /actuator/prometheus}. Hops that start at a record's timestamp compare
 * two machines' clocks when producer and consumer run apart, so they are exact only on one host.
 */
public final class HopTimers {

    public static final String NAME = "pipeline.hop.latency";

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public HopTimers(MeterRegistry registry) {
        this.registry = registry;
    }

    public Timer hop(String hop) {
        return timers.computeIfAbsent(hop, h -> Timer.builder(NAME).tag("hop", h)
                .description("Latency of one hop of the data path")
                .publishPercentiles(0.5, 0.95, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry));
    }

    /** Records the time from {@code epochMillis} (a record's timestamp) to now; a clock step backwards is skipped. */
    public void since(String hop, long epochMillis) {
        long elapsed = System.currentTimeMillis() - epochMillis;
        if (elapsed >= 0) {
            hop(hop).record(elapsed, TimeUnit.MILLISECONDS);
        }
    }
}
