package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/** Runs each benchmark of {@link DecoderJmh} once and checks its result, so a broken benchmark fails the build; no timing. */
class DecoderJmhTest {

    private final DecoderJmh bench = new DecoderJmh();

    DecoderJmhTest() {
        bench.setUp();
    }

    @Test
    void builtInAndJavaScriptCodecsDecodeTheSameMeasurements() {
        var builtIn = unit(bench.decodeBuiltIn());
        var script = unit(bench.decodeJavaScript());

        assertThat(builtIn.measurements())
                .containsEntry("temperature", 30.8)
                .containsEntry("humidity", 50.5)
                .containsEntry("battery", 92.0);
        assertThat(script.measurements()).isEqualTo(builtIn.measurements());
        assertThat(builtIn.attributes()).containsKey("network");
    }

    @Test
    void mappedDecodeRenamesTheLht65Fields() {
        assertThat(unit(bench.decodeBuiltInMapped()).measurements())
                .containsEntry("temperature", 28.29)
                .containsEntry("humidity", 88.6)
                .containsKey("batteryVoltage")
                .doesNotContainKey("TempC_SHT");
    }

    @Test
    void serdeRoundTripsTheDataUnit() {
        assertThat(EventJson.read(bench.serializeDataUnit(), DataUnit.class)).isEqualTo(bench.dataUnit);
        assertThat(bench.readDataUnit()).isEqualTo(bench.dataUnit);
    }

    @Test
    void everyBenchmarkIsCheckedHereAndListedForJmh() throws IOException {
        var benchmarks = Arrays.stream(DecoderJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks)
                .containsExactlyInAnyOrder(
                        "decodeBuiltIn",
                        "decodeBuiltInMapped",
                        "decodeJavaScript",
                        "serializeDataUnit",
                        "readDataUnit");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            var list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            benchmarks.forEach(name -> assertThat(list).contains("DecoderJmh_" + name + "_jmhTest"));
        }
    }

    private static DataUnit unit(Outcome outcome) {
        assertThat(outcome).isInstanceOf(Outcome.Decoded.class);
        return ((Outcome.Decoded) outcome).dataUnit();
    }
}
