package dev.iotpipeline.rules.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Runs {@link RuleJmh}'s benchmark over every device and checks what it counted, so a broken benchmark fails the
 * build; no timing. Also checks {@link RuleJmhReport}'s table.
 */
class RuleJmhTest {

    @Test
    void everyRuleIsEvaluatedForEveryDataUnitAndAboutHalfHold() {
        for (int rules : new int[] {1, 100}) {
            var bench = bench(rules);
            var counts = new RuleJmh.Counts();
            long raised = 0;
            for (int i = 0; i < RuleJmh.DEVICES; i++) {
                raised += bench.evaluate(counts);
            }
            assertThat(counts.units).isEqualTo(RuleJmh.DEVICES);
            assertThat(counts.evaluations).isEqualTo((long) rules * RuleJmh.DEVICES);
            assertThat(counts.matches).isEqualTo(raised);
            // Readings of 19.0-30.9 °C against thresholds of 20.0-29.9 °C.
            assertThat((double) counts.matches / counts.evaluations)
                    .as("share of rules that hold")
                    .isBetween(0.4, 0.95);
            // The devices are taken in turn: the next call starts over with the first.
            assertThat(bench.next).isZero();
        }
    }

    @Test
    void aThousandRulesAreAllSelected() {
        var bench = bench(1000);
        assertThat(bench.ruleSet.matching(bench.devices[0])).hasSize(1000);
        var counts = new RuleJmh.Counts();
        bench.evaluate(counts);
        assertThat(counts.evaluations).isEqualTo(1000);
    }

    @Test
    void jmhListsTheBenchmark() throws IOException {
        var benchmarks = Arrays.stream(RuleJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks).containsExactly("evaluate");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains("RuleJmh_evaluate_jmhTest");
        }
    }

    @Test
    void theReportGivesEvaluationsAndDataUnitsPerSecond(@TempDir Path dir) throws IOException {
        var json = dir.resolve("rules.json");
        Files.writeString(
                json,
                "[" + run(100, 20.0, 1.5, 50_000, 5_000_000, 2_470_000) + ","
                        + run(1, 0.25, 0, 4_000_000, 4_000_000, 3_600_000) + "]");

        var report = RuleJmhReport.render(json);

        assertThat(report)
                .contains(
                        "JMH 1.37 on JDK 25 (OpenJDK 64-Bit Server VM 25+36): per rule count 1 fork, 3 warm-up"
                                + " iterations of 2 s, 5 measured iterations of 5 s, one thread.",
                        "| 1 | 4,000,000 | 4,000,000 | 0.250 | 0.9 |\n| 100 | 5,000,000 | 50,000 | 20.0 ± 1.50 | 49.4 |");
    }

    private static String run(int rules, double score, double error, long units, long evaluations, long matches) {
        return """
                {"jmhVersion":"1.37","benchmark":"dev.iotpipeline.rules.alarm.RuleJmh.evaluate","mode":"avgt",
                 "threads":1,"forks":1,"jdkVersion":"25","vmName":"OpenJDK 64-Bit Server VM","vmVersion":"25+36",
                 "warmupIterations":3,"warmupTime":"2 s","measurementIterations":5,"measurementTime":"5 s",
                 "params":{"rules":"%d"},
                 "primaryMetric":{"score":%s,"scoreError":%s,"scoreUnit":"us/op"},
                 "secondaryMetrics":{"units":{"score":%d,"scoreUnit":"#"},
                                     "evaluations":{"score":%d,"scoreUnit":"#"},
                                     "matches":{"score":%d,"scoreUnit":"#"}}}
                """.formatted(rules, score, error == 0 ? "\"NaN\"" : error, units, evaluations, matches);
    }

    private static RuleJmh bench(int rules) {
        var bench = new RuleJmh();
        bench.rules = rules;
        bench.setUp();
        return bench;
    }
}
