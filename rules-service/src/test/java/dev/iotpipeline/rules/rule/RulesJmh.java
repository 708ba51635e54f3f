package dev.iotpipeline.rules.rule;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.events.Severity;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JMH benchmarks of the rules engine's pure per-record core: the rule set evaluated against one data unit, without Kafka Streams. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RulesJmh {

    RuleSet rules;
    CompiledRule hot;
    /** An EM300-TH reading of a hot, dry field: raises the irrigation thresholds it meets. */
    DataUnit unit;

    @Setup
    public void setUp() {
        rules = new RuleSet();
        var irrigationEm300th = new RuleFilter("irrigation", "em300th", null);
        add("hot", irrigationEm300th, "temperature > 30", "temperature < 28", null, Severity.MAJOR);
        add("dry", irrigationEm300th, "humidity < 20 || humidity > 90", null, "PT5M", Severity.MINOR);
        add("drift", irrigationEm300th, "abs(temperature - 20) > 15", null, null, Severity.WARNING);
        add("battery", new RuleFilter(null, "em300th", null), "battery < 10", null, null, Severity.WARNING);
        add(
                "spread",
                new RuleFilter("irrigation", null, null),
                "max(temperature, humidity / 2) >= 40",
                null,
                null,
                Severity.MINOR);
        add(
                "dev-1-frost",
                new RuleFilter("irrigation", "em300th", "dev-1"),
                "temperature < 2",
                null,
                null,
                Severity.CRITICAL);
        rules.apply(
                "quiet",
                new Rule(
                        "quiet",
                        Rule.SCHEMA_VERSION,
                        "quiet",
                        new RuleFilter("irrigation", null, null),
                        Rule.RuleType.INACTIVITY,
                        null,
                        null,
                        null,
                        "PT15M",
                        Severity.MAJOR,
                        true,
                        Instant.EPOCH));
        // Rules of other channels and device types, which the filter skips.
        for (int i = 0; i < 12; i++) {
            add(
                    "greenhouse-" + i,
                    new RuleFilter("greenhouse", "lht65", null),
                    "temperature > " + (25 + i) + " && humidity < 60",
                    null,
                    null,
                    Severity.MAJOR);
            add(
                    "tank-" + i,
                    new RuleFilter("tanks", "cayenne-lpp", null),
                    "waterLevel < " + (100 * i),
                    null,
                    null,
                    Severity.MINOR);
        }
        hot = rules.compiled("hot").orElseThrow();
        var now = Instant.now();
        unit = new DataUnit(
                Ids.newId(),
                DataUnit.SCHEMA_VERSION,
                Ids.newId(),
                "irrigation",
                "em300th",
                "dev-1",
                now,
                now,
                now,
                Map.of("temperature", 30.8, "humidity", 18.5, "battery", 92.0),
                Map.of());
    }

    /**
     * AlarmProcessor's evaluation of one data unit minus its state store: the enabled rules whose filter matches
     * (7 of 31), and each threshold rule's condition; returns how many raise.
     */
    @Benchmark
    public int evaluateRuleSet() {
        int raised = 0;
        for (var rule : rules.matching(unit)) {
            if (!rule.inactivity() && rule.raises(unit.measurements())) {
                raised++;
            }
        }
        return raised;
    }

    /** One compiled SpEL condition ({@code temperature > 30}) on one data unit's measurements. */
    @Benchmark
    public boolean evaluateOneCondition() {
        return hot.raises(unit.measurements());
    }

    private void add(String id, RuleFilter filter, String condition, String clear, String holdFor, Severity severity) {
        rules.apply(
                id,
                new Rule(
                        id,
                        Rule.SCHEMA_VERSION,
                        id,
                        filter,
                        Rule.RuleType.THRESHOLD,
                        condition,
                        clear,
                        holdFor,
                        null,
                        severity,
                        true,
                        Instant.EPOCH));
    }
}
