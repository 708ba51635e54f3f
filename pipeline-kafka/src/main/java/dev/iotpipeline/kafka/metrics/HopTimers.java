package dev.iotpipeline.kafka.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The latency of each hop of the data path as one histogram, {@code pipeline.hop.latency{hop}}, whose buckets a
 * benchmark turns into quantiles between two scrapes (no client-side percentiles: they cost work on every record
 * and Prometheus does not expose them beside a histogram). Hops that start at a record's timestamp compare two
 * machines' clocks when producer and consumer run apart, so they are exact only on one host.
 */
public final class HopTimers {

    public static final String NAME = "pipeline.hop.latency";

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    public HopTimers(MeterRegistry registry) {
        this.registry = registry;
    }

    public Timer hop(String hop) {
        return timers.computeIfAbsent(
                hop,
                h -> Timer.builder(NAME)
                        .tag("hop", h)
                        .description("Latency of one hop of the data path")
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
