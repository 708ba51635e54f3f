package dev.iotpipeline.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * How busy the JIT compilers of the services' JVMs are, read from the compilation time each service exports
 * ({@code jvm_compilation_time_ms_total}): an AOT training stops once they are quiet, because the cache records the
 * compilations that have happened, and a JVM that is still compiling its hot paths when the training ends leaves them
 * short of C2 in the cache.
 */
final class CompilerActivity {

    /** A JVM whose compilers took less than this share of a window, summed over their threads, is quiet. */
    static final double QUIET_SHARE = 0.05;

    private static final String METRIC = "jvm_compilation_time_ms_total";

    private final HttpClient http;
    private final List<String> names;
    private final List<String> urls;

    /** {@code services}: each service's name and base URL, in the order the samples hold them. */
    CompilerActivity(HttpClient http, Map<String, String> services) {
        this.http = http;
        this.names = List.copyOf(services.keySet());
        this.urls = names.stream().map(services::get).toList();
    }

    /** Each service's compilation time so far, in ms, in the services' order; NaN for one that did not answer. */
    double[] sample() throws InterruptedException {
        var millis = new double[urls.size()];
        for (int i = 0; i < millis.length; i++) {
            var request = HttpRequest.newBuilder(URI.create(urls.get(i) + "/actuator/prometheus"))
                    .timeout(Duration.ofSeconds(5))
                    .GET()
                    .build();
            try {
                var response = http.send(request, HttpResponse.BodyHandlers.ofString());
                millis[i] = response.statusCode() == 200
                        ? compilationMillis(response.body()).orElse(Double.NaN)
                        : Double.NaN;
            } catch (IOException e) {
                millis[i] = Double.NaN;
            }
        }
        return millis;
    }

    /**
     * The services whose compilers took {@link #QUIET_SHARE} of the window or more between the two samples, by name:
     * none means every JVM is quiet. A service that did not answer either time (NaN) is never quiet.
     */
    List<String> busy(double[] before, double[] after, Duration window) {
        var busy = new ArrayList<String>();
        for (int i = 0; i < after.length; i++) {
            if (!(after[i] - before[i] < QUIET_SHARE * window.toMillis())) {
                busy.add(names.get(i));
            }
        }
        return busy;
    }

    /** The summed compilation time in a Prometheus scrape, if it holds one. */
    static OptionalDouble compilationMillis(String scrape) {
        double total = 0;
        boolean found = false;
        for (var line : scrape.split("\n")) {
            if (line.startsWith(METRIC + "{") || line.startsWith(METRIC + " ")) {
                total += Double.parseDouble(
                        line.substring(line.lastIndexOf(' ') + 1).trim());
                found = true;
            }
        }
        return found ? OptionalDouble.of(total) : OptionalDouble.empty();
    }
}
