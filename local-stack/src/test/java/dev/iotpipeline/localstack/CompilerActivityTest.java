package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;

class CompilerActivityTest {

    private static final Duration WINDOW = Duration.ofSeconds(10);

    private final CompilerActivity compilers = compilers();

    @Test
    void readsTheCompilationTimeFromAScrape() {
        var scrape = """
                # HELP jvm_compilation_time_ms_total The approximate accumulated elapsed time spent in compilation
                # TYPE jvm_compilation_time_ms_total counter
                jvm_compilation_time_ms_total{compiler="HotSpot 64-Bit Tiered Compilers"} 45294.0
                jvm_compilation_time_ms_total_other 7.0
                jvm_info{runtime="OpenJDK Runtime Environment"} 1
                """;

        assertThat(CompilerActivity.compilationMillis(scrape)).hasValue(45294.0);
        assertThat(CompilerActivity.compilationMillis("jvm_info 1\n")).isEmpty();
    }

    @Test
    void quietOnlyWhenEveryJvmCompiledUnderItsShareOfTheWindow() {
        double[] before = {1_000, 2_000};

        assertThat(compilers.busy(before, new double[] {1_400, 2_100}, WINDOW)).isEmpty();
        assertThat(compilers.busy(before, new double[] {1_400, 2_500}, WINDOW)).containsExactly("rules");
    }

    @Test
    void aServiceThatDidNotAnswerIsNotQuiet() {
        assertThat(compilers.busy(new double[] {Double.NaN, 0}, new double[] {1_000, 0}, WINDOW))
                .containsExactly("ingest");
        assertThat(compilers.busy(new double[] {1_000, 0}, new double[] {Double.NaN, 0}, WINDOW))
                .containsExactly("ingest");
    }

    @Test
    void namesTheServicesStillCompiling() {
        assertThat(compilers.busy(new double[] {0, 0}, new double[] {3_000, 3_000}, WINDOW))
                .containsExactly("ingest", "rules");
    }

    private static CompilerActivity compilers() {
        var services = new LinkedHashMap<String, String>();
        services.put("ingest", "http://localhost:8080");
        services.put("rules", "http://localhost:8082");
        return new CompilerActivity(HttpClient.newHttpClient(), services);
    }
}
