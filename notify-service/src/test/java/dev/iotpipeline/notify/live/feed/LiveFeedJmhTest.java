package dev.iotpipeline.notify.live.feed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/** Runs each benchmark of {@link LiveFeedJmh} once and checks its result, so a broken benchmark fails the build; no timing. */
class LiveFeedJmhTest {

    private final LiveFeedJmh bench = new LiveFeedJmh();

    LiveFeedJmhTest() {
        bench.setUp();
    }

    @Test
    void aDataUnitReachesTheMatchingSessions() {
        assertThat(bench.onDataUnitRecord()).isEqualTo(LiveFeedJmh.MATCHING);
        assertThat(bench.logs.of(LiveStream.DATA_UNITS).positionsAt(bench.event.id()))
                .hasValueSatisfying(p -> assertThat(p[3]).isZero());
    }

    @Test
    void theRecordParsesIntoItsEvent() {
        var event = bench.parseRecord();

        assertThat(event.channel()).isEqualTo("irrigation");
        assertThat(event.deviceId()).isEqualTo("dev-1");
        assertThat(event.traceId()).as("its uplink's own trace").isEqualTo("0193b8a27c4e7d219f3a2b4c6d8e0a1b");
        assertThat(event.partition()).isEqualTo(3);
    }

    @Test
    void theMessageIsTheEnvelopeWithTheTraceId() {
        assertThat(bench.matchAndRender())
                .startsWith("{\"type\":\"data-unit\",\"subscription\":\"live\",\"data\":{")
                .contains("\"temperature\":30.8")
                .endsWith(",\"traceId\":\"0193b8a27c4e7d219f3a2b4c6d8e0a1b\"}");
    }

    @Test
    void everyBenchmarkIsCheckedHereAndListedForJmh() throws IOException {
        var benchmarks = Arrays.stream(LiveFeedJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks).containsExactlyInAnyOrder("onDataUnitRecord", "parseRecord", "matchAndRender");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            var list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            benchmarks.forEach(name -> assertThat(list).contains("LiveFeedJmh_" + name + "_jmhTest"));
        }
    }
}
