package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.Severity;
import dev.iotpipeline.kafka.metrics.HopTimers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Rule evaluations, evaluation latency per data unit, alarms raised and cleared by severity, state size. */
public final class RuleMetrics {

    private final Counter evaluations;
    private final Timer latency;
    private final Map<Severity, Counter> raised = new EnumMap<>(Severity.class);
    private final Map<Severity, Counter> cleared = new EnumMap<>(Severity.class);
    /** By stream task: each task's processor has its own part of the alarm state. */
    private final Map<String, Long> stateEntries = new ConcurrentHashMap<>();

    private final Timer sweeps;
    private final HopTimers hops;

    public RuleMetrics(MeterRegistry registry) {
        hops = new HopTimers(registry);
        evaluations = Counter.builder("rules.evaluations")
                .description("Rule evaluations (rule × data unit)")
                .register(registry);
        latency = Timer.builder("rules.evaluation")
                .description("Time to evaluate every matching rule on one data unit")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100))
                .maximumExpectedValue(Duration.ofSeconds(1))
                .register(registry);
        for (var severity : Severity.values()) {
            raised.put(
                    severity,
                    Counter.builder("rules.alarms.raised")
                            .tag("severity", severity.name())
                            .register(registry));
            cleared.put(
                    severity,
                    Counter.builder("rules.alarms.cleared")
                            .tag("severity", severity.name())
                            .register(registry));
        }
        Gauge.builder("rules.state.entries", this, RuleMetrics::stateEntries)
                .description("(rule, device) pairs in this instance's alarm state")
                .register(registry);
        sweeps = Timer.builder("rules.state.sweep")
                .description("Scans of the alarm state for inactivity deadlines and alarms of changed rules")
                .register(registry);
    }

    /** rules-poll: a data unit's record written by the decoder to its evaluation here. */
    void polled(long recordTimestamp) {
        hops.since("rules-poll", recordTimestamp);
    }

    /** For tests and benchmarks that do not publish metrics. */
    public static RuleMetrics none() {
        return new RuleMetrics(new SimpleMeterRegistry());
    }

    void evaluated(int rules, long nanos) {
        evaluations.increment(rules);
        latency.record(nanos, TimeUnit.NANOSECONDS);
    }

    void raised(Severity severity) {
        raised.get(severity).increment();
    }

    void cleared(Severity severity) {
        cleared.get(severity).increment();
    }

    void stateEntries(String task, long entries) {
        stateEntries.put(task, entries);
    }

    /** The task's processor closed: its part of the state went elsewhere or the instance stops. */
    void closed(String task) {
        stateEntries.remove(task);
    }

    void swept(long nanos) {
        sweeps.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** How many times the alarm state was scanned. */
    long sweeps() {
        return sweeps.count();
    }

    /** The alarm state's size over every task of this instance, as the gauge reports it. */
    long stateEntries() {
        return stateEntries.values().stream().mapToLong(Long::longValue).sum();
    }

    public double evaluations() {
        return evaluations.count();
    }
}
