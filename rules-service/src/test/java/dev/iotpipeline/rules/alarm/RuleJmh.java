package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH benchmark of the alarm processor's work per data unit with 1, 100 and 1,000 rules over 10,000 devices: select
 * the rules whose filter matches, evaluate each compiled condition; without Kafka. Every rule's filter matches every
 * data unit, so each data unit is evaluated against every rule; the thresholds are spread over the readings, so
 * about half the rules hold. One operation is one data unit, the devices taken in turn. Run by
 * {@code bench/rules.sh}; {@code RulesJmh} has the rule set of a realistic deployment.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RuleJmh {

    static final int DEVICES = 10_000;

    /** Rules active. */
    @Param({"1", "100", "1000"})
    public int rules;

    RuleSet ruleSet;
    DataUnit[] devices;
    int next;

    @Setup
    public void setUp() {
        ruleSet = new RuleSet();
        for (int r = 0; r < rules; r++) {
            // Thresholds spread over the readings, so about half the rules hold for a given data unit.
            ruleSet.apply(
                    "r" + r,
                    new Rule(
                            "r" + r,
                            Rule.SCHEMA_VERSION,
                            "bench " + r,
                            RuleFilter.ANY,
                            Rule.RuleType.THRESHOLD,
                            "temperature > " + (20 + (r % 100) * 0.1) + " && humidity < 90",
                            null,
                            null,
                            null,
                            null,
                            true,
                            Instant.EPOCH));
        }
        devices = new DataUnit[DEVICES];
        var now = Instant.now();
        for (int d = 0; d < DEVICES; d++) {
            devices[d] = new DataUnit(
                    Ids.newId(),
                    DataUnit.SCHEMA_VERSION,
                    Ids.newId(),
                    "bench",
                    "em300th",
                    "dev-" + d,
                    now,
                    now,
                    now,
                    Map.of("temperature", 19.0 + (d % 120) * 0.1, "humidity", 50.0),
                    Map.of());
        }
        next = 0;
    }

    /** The next device's data unit against the rule set; returns how many rules raise. */
    @Benchmark
    public int evaluate(Counts counts) {
        var unit = devices[next];
        next = next + 1 == DEVICES ? 0 : next + 1;
        int evaluations = 0;
        int matches = 0;
        for (var rule : ruleSet.matching(unit)) {
            evaluations++;
            if (rule.raises(unit.measurements())) {
                matches++;
            }
        }
        counts.units++;
        counts.evaluations += evaluations;
        counts.matches += matches;
        return matches;
    }

    /**
     * What the measured iterations did, for the report: data units, rule evaluations and rules that held (JMH lists
     * each as a secondary result, the iterations' average count).
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counts {
        public long units;
        public long evaluations;
        public long matches;

        @Setup(Level.Iteration)
        public void reset() {
            units = 0;
            evaluations = 0;
            matches = 0;
        }
    }
}
