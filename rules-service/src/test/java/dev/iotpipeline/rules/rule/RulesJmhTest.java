package dev.iotpipeline.rules.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/** Runs each benchmark of {@link RulesJmh} once and checks its result, so a broken benchmark fails the build; no timing. */
class RulesJmhTest {

    private final RulesJmh bench = new RulesJmh();

    RulesJmhTest() {
        bench.setUp();
    }

    @Test
    void theRuleSetRaisesTheThresholdsTheReadingMeets() {
        assertThat(bench.rules.all()).hasSize(31);
        assertThat(bench.rules.matching(bench.unit)).hasSize(7);
        // hot (30.8 > 30), dry (18.5 < 20), drift (|30.8 - 20| > 15 is false), battery, spread, frost: 2 raise.
        assertThat(bench.evaluateRuleSet()).isEqualTo(2);
    }

    @Test
    void oneConditionRaises() {
        assertThat(bench.evaluateOneCondition()).isTrue();
    }

    @Test
    void everyBenchmarkIsCheckedHereAndListedForJmh() throws IOException {
        var benchmarks = Arrays.stream(RulesJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks).containsExactlyInAnyOrder("evaluateRuleSet", "evaluateOneCondition");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            var list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            benchmarks.forEach(name -> assertThat(list).contains("RulesJmh_" + name + "_jmhTest"));
        }
    }
}
