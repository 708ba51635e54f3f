package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;

/** Runs each benchmark of {@link IngestJmh} once and checks its result, so a broken benchmark fails the build; no timing. */
class IngestJmhTest {

    private static final String EM300TH = "01755C03673401046865";

    private final IngestJmh bench = new IngestJmh();

    IngestJmhTest() {
        bench.setUp();
    }

    @Test
    void encodedBuildsTheEm300thUplink() {
        var uplink = bench.encoded();

        assertThat(uplink.channel()).isEqualTo("irrigation");
        assertThat(uplink.deviceType()).isEqualTo("em300th");
        assertThat(uplink.deviceId()).isEqualTo("em300-th-1");
        assertThat(uplink.fPort()).isEqualTo(85);
        assertThat(hex(uplink)).isEqualTo(EM300TH);
    }

    @Test
    void decodedCarriesTheMeasurementsAsAJsonPayload() {
        var uplink = bench.decoded();

        assertThat(uplink.deviceType()).isEqualTo("json");
        assertThat(EventJson.mapper()
                        .readTree(uplink.payload())
                        .path("measurements")
                        .path("temperature")
                        .asDouble())
                .isEqualTo(30.8);
    }

    @Test
    void webhooksBuildTheSameFrameWithRadioMetadata() {
        var tts = bench.theThingsStackWebhook();
        var chirpStack = bench.chirpStackWebhook();

        assertThat(hex(tts)).isEqualTo(EM300TH);
        assertThat(tts.deviceId()).isEqualTo("em300-th-1");
        assertThat(tts.metadata()).containsEntry("networkServer", "tts").containsEntry("rssi", -35);
        assertThat(hex(chirpStack)).isEqualTo(EM300TH);
        assertThat(chirpStack.deviceId()).isEqualTo("24e124136b502217");
        assertThat(chirpStack.metadata())
                .containsEntry("networkServer", "chirpstack")
                .containsEntry("snr", 10.5);
    }

    @Test
    void serializeWritesTheEventConsumersRead() {
        var read = EventJson.read(bench.serializeEncodedUplink(), EncodedUplink.class);

        assertThat(read.id()).isEqualTo(bench.uplink.id());
        assertThat(hex(read)).isEqualTo(EM300TH);
        assertThat(read.metadata()).isEqualTo(Map.of());
    }

    @Test
    void everyBenchmarkIsCheckedHereAndListedForJmh() throws IOException {
        var benchmarks = Arrays.stream(IngestJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks)
                .containsExactlyInAnyOrder(
                        "encoded", "decoded", "theThingsStackWebhook", "chirpStackWebhook", "serializeEncodedUplink");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            var list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            benchmarks.forEach(name -> assertThat(list).contains("IngestJmh_" + name + "_jmhTest"));
        }
    }

    private static String hex(EncodedUplink uplink) {
        return HexFormat.of().withUpperCase().formatHex(uplink.payload());
    }
}
