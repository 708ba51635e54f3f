package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * Runs {@link CodecJmh}'s benchmark once for every case and checks its result, so a broken benchmark fails the
 * build; no timing. Also checks {@link CodecJmhReport}'s tables.
 */
class CodecJmhTest {

    @Test
    void everyCaseDecodesItsPayload() {
        for (var codec : CodecJmh.CASES.keySet()) {
            assertThat(decode(codec).measurements()).as(codec).isNotEmpty();
        }
    }

    @Test
    void builtInAndJavaScriptEm300thDecodeTheSameMeasurements() {
        assertThat(decode("em300th").measurements())
                .containsEntry("temperature", 30.8)
                .containsEntry("humidity", 50.5)
                .containsEntry("battery", 92.0);
        assertThat(decode("em300th-js").measurements())
                .isEqualTo(decode("em300th").measurements());
    }

    @Test
    void theParamListsEveryCaseInOrderAndJmhListsTheBenchmark() throws Exception {
        var values = CodecJmh.class.getField("codec").getAnnotation(Param.class).value();
        assertThat(values).containsExactlyElementsOf(CodecJmh.CASES.keySet());
        var benchmarks = Arrays.stream(CodecJmh.class.getMethods())
                .filter(m -> m.isAnnotationPresent(Benchmark.class))
                .map(m -> m.getName())
                .toList();
        assertThat(benchmarks).containsExactly("decode");
        // The annotation processor ran: JMH finds its benchmarks through this list.
        try (var in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList").isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains("CodecJmh_decode_jmhTest");
        }
    }

    @Test
    void theReportGivesDecodesPerSecondAndMicrosPerDecode(@TempDir Path dir) throws IOException {
        var json = result(dir.resolve("now.json"), 0.04, 0.002, "lht65", 2.5, 0.125);

        var report = CodecJmhReport.render(List.of(json), List.of());

        assertThat(report)
                .contains(
                        "JMH 1.37 on JDK 25 (OpenJDK 64-Bit Server VM 25+36): per case 1 fork, 3 warm-up iterations"
                                + " of 2 s, 5 measured iterations of 2 s, one thread.",
                        "| em300th (built-in) | 25,000,000 | 0.0400 ± 0.0020 |",
                        "| lht65 (built-in) | 400,000 | 2.50 ± 0.125 |",
                        "Not measured in this run: cayenne-lpp, json, em300th-js, ironbark-meter-js,"
                                + " meridian-tank-js.");
    }

    @Test
    void theComparisonGivesMediansAndTheirRatio(@TempDir Path dir) throws IOException {
        var now = List.of(
                result(dir.resolve("a1.json"), 0.04, 0, "lht65", 2.0, 0),
                result(dir.resolve("a2.json"), 0.05, 0, "lht65", 2.5, 0),
                result(dir.resolve("a3.json"), 0.08, 0, "lht65", 4.0, 0));
        var before = List.of(
                result(dir.resolve("b1.json"), 0.05, 0, "lht65", 2.0, 0),
                result(dir.resolve("b2.json"), 0.05, 0, "json", 1.0, 0));

        var report = CodecJmhReport.render(now, before);

        assertThat(report)
                .contains(
                        "| codec | decodes/s now (median of 3 runs) | decodes/s before (median of 2 runs) |",
                        "| em300th (built-in) | 20,000,000 | 20,000,000 | 1.00 |",
                        "| lht65 (built-in) | 400,000 | 500,000 | 0.80 |",
                        "| json (built-in) | failed | 1,000,000 | — |",
                        "failed: the case threw in that build");
    }

    /** A JMH result file with the em300th case and one other, scores in µs per decode. */
    private static Path result(Path file, double em300th, double em300thError, String other, double score, double error)
            throws IOException {
        Files.writeString(file, "[" + run("em300th", em300th, em300thError) + "," + run(other, score, error) + "]");
        return file;
    }

    private static String run(String codec, double score, double error) {
        return """
                {"jmhVersion":"1.37","benchmark":"dev.iotpipeline.decoder.codec.CodecJmh.decode","mode":"avgt",
                 "threads":1,"forks":1,"jdkVersion":"25","vmName":"OpenJDK 64-Bit Server VM","vmVersion":"25+36",
                 "warmupIterations":3,"warmupTime":"2 s","measurementIterations":5,"measurementTime":"2 s",
                 "params":{"codec":"%s"},
                 "primaryMetric":{"score":%s,"scoreError":%s,"scoreUnit":"us/op"}}
                """.formatted(codec, score, error == 0 ? "\"NaN\"" : error);
    }

    private static Decoded decode(String codec) {
        var bench = new CodecJmh();
        bench.codec = codec;
        bench.setUp();
        return (Decoded) bench.decode();
    }
}
