package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.Rule;
import dev.iotpipeline.events.RuleFilter;
import dev.iotpipeline.rules.rule.RuleSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rule evaluations per second on one thread with 1, 100 and 1,000 rules over 10,000 devices: the work the
 * alarm processor does per data unit (select the matching rules, evaluate each condition), without Kafka.
 * A benchmark run by bench/rules.sh, not a test.
 */
public final class RuleBenchmark {

    private RuleBenchmark() {}

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 5;
        System.out.println(
                "| rules active | rule evaluations/s (one thread, median of 3) | data units/s | matches per data unit |");
        System.out.println("|---|---|---|---|");
        for (int ruleCount : new int[] {1, 100, 1000}) {
            run(ruleCount, seconds);
        }
    }

    private static void run(int ruleCount, long seconds) {
        var rules = new RuleSet();
        for (int r = 0; r < ruleCount; r++) {
            // Thresholds spread over the readings, so about half the rules hold for a given data unit.
            rules.apply(
                    "r" + r,
                    new Rule(
                            "r" + r,
                            1,
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
        List<DataUnit> devices = new ArrayList<>(10_000);
        var now = Instant.now();
        for (int d = 0; d < 10_000; d++) {
            devices.add(new DataUnit(
                    Ids.newId(),
                    1,
                    Ids.newId(),
                    "bench",
                    "em300th",
                    "dev-" + d,
                    now,
                    now,
                    now,
                    Map.of("temperature", 19.0 + (d % 120) * 0.1, "humidity", 50.0),
                    Map.of()));
        }
        measure(rules, devices, 2_000_000_000L);
        var rates = new ArrayList<double[]>();
        for (int i = 0; i < 3; i++) {
            rates.add(measure(rules, devices, seconds * 1_000_000_000L));
        }
        rates.sort((a, b) -> Double.compare(a[0], b[0]));
        var median = rates.get(1);
        System.out.printf("| %,d | %,.0f | %,.0f | %.1f |%n", ruleCount, median[0], median[1], median[2]);
    }

    /** Returns evaluations/s, data units/s and matches per data unit. */
    private static double[] measure(RuleSet rules, List<DataUnit> devices, long nanos) {
        long evaluations = 0;
        long units = 0;
        long matches = 0;
        long started = System.nanoTime();
        long end = started + nanos;
        int i = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 100; k++) {
                var unit = devices.get(i++ % devices.size());
                for (var rule : rules.matching(unit)) {
                    evaluations++;
                    if (rule.raises(unit.measurements())) {
                        matches++;
                    }
                }
                units++;
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        return new double[] {evaluations / elapsed, units / elapsed, (double) matches / units};
    }
}
