package dev.iotpipeline.notify.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/** Runs the benchmark of {@link HistoryWriterJmh} once and checks its result, so a broken benchmark fails the build; no timing. */
class HistoryWriterJmhTest {

    private final HistoryWriterJmh bench = new HistoryWriterJmh();

    HistoryWriterJmhTest() {
        bench.setUp();
    }

    @Test
    void theBatchIsSplitIntoItsUpserts() {
        assertThat(bench.prepareBatch()).isEqualTo(HistoryWriterJmh.BATCH);
        assertThat(bench.units).hasSize(95);
        assertThat(bench.alarms).hasSize(5);
        assertThat(bench.units.getFirst().event().deviceType()).isEqualTo("em300th");
        assertThat(bench.units.getFirst().json())
                .as("a data unit's row is its fields")
                .isNull();
        assertThat(bench.alarms.getFirst().event().ruleId()).isEqualTo("hot");
    }

    @Test
    void everyBenchmarkIsCheckedHereAndListedForJmh() throws IOException {
        var benchmarks = Arrays.stream(HistoryWriterJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks).containsExactly("prepareBatch");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            var list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            benchmarks.forEach(name -> assertThat(list).contains("HistoryWriterJmh_" + name + "_jmhTest"));
        }
    }
}
