package dev.iotpipeline.localstack.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistogramsTest {

    @TempDir
    Path dir;

    @Test
    void quantilesComeFromWhatWasObservedBetweenTheScrapesInterpolatedWithinTheBucket() throws Exception {
        var before = dir.resolve("before.prom");
        var after = dir.resolve("after.prom");
        // Before: 10 observations under 1 ms. Between the scrapes: 50 in (1, 2] ms, 40 in (2, 4] ms, 10 in (4, +Inf).
        Files.writeString(before, """
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="0.001"} 10
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="0.002"} 10
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="0.004"} 10
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="+Inf"} 10
                """);
        Files.writeString(after, """
                # HELP pipeline_hop_latency_seconds Latency of one hop of the data path
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="0.001"} 10
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="0.002"} 60
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="0.004"} 100
                pipeline_hop_latency_seconds_bucket{hop="decoder-poll",le="+Inf"} 110
                ingest_kafka_send_seconds_bucket{le="0.001"} 3
                ingest_kafka_send_seconds_bucket{le="+Inf"} 3
                """);

        var delta = Histograms.delta(Histograms.read(before), Histograms.read(after));

        var hop = delta.get("pipeline_hop_latency_seconds{hop=\"decoder-poll\"}");
        assertThat(hop.count()).isEqualTo(100);
        assertThat(hop.quantile(0.5)).isCloseTo(0.002, within(1e-9));
        assertThat(hop.quantile(0.7)).isCloseTo(0.003, within(1e-9));
        // Beyond the last finite bound Prometheus answers that bound, as this does.
        assertThat(hop.quantile(0.99)).isCloseTo(0.004, within(1e-9));
        assertThat(delta.get("ingest_kafka_send_seconds{}").count()).isEqualTo(3);
        assertThat(Histograms.delta(Histograms.read(after), Histograms.read(after))
                        .get("ingest_kafka_send_seconds{}")
                        .quantile(0.5))
                .isNaN();
    }
}
