package dev.iotpipeline.rules.alarm;

import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * The Markdown table of docs/benchmarks/rules.md from {@link RuleJmh}'s JSON results ({@code -rf json}): per rule
 * count, rule evaluations and data units per second on one thread, µs per data unit and the rules that held per data
 * unit (from the benchmark's counters). A tool run by {@code bench/rules.sh}, not a test.
 */
public final class RuleJmhReport {

    private RuleJmhReport() {}

    /** Argument: JMH's JSON file. Prints Markdown. */
    public static void main(String[] args) throws IOException {
        System.out.print(render(Path.of(args[0])));
    }

    static String render(Path json) throws IOException {
        var runs = new ArrayList<JsonNode>();
        for (var run : EventJson.mapper().readTree(Files.readAllBytes(json))) {
            if (run.path("benchmark").asString("").endsWith(".RuleJmh.evaluate")) {
                runs.add(run);
            }
        }
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no RuleJmh results in " + json);
        }
        runs.sort(
                Comparator.comparingInt(run -> run.path("params").path("rules").asInt()));
        var first = runs.getFirst();
        int forks = first.path("forks").asInt();
        var out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "JMH %s on JDK %s (%s %s): per rule count %d fork%s, %s, %s, one thread. The score is the average"
                        + " time per data unit over the measured iterations; evaluations and matches are counted over"
                        + " the same iterations.%n%n",
                first.path("jmhVersion").asString(""),
                first.path("jdkVersion").asString(""),
                first.path("vmName").asString(""),
                first.path("vmVersion").asString(""),
                forks,
                forks == 1 ? "" : "s",
                iterations(first.path("warmupIterations").asInt(), "warm-up", first.path("warmupTime")),
                iterations(first.path("measurementIterations").asInt(), "measured", first.path("measurementTime"))));
        out.append("| rules active | rule evaluations/s (one thread) | data units/s | µs per data unit (± 99.9 %")
                .append(" confidence) | matches per data unit |\n");
        out.append("|---:|---:|---:|---:|---:|\n");
        for (var run : runs) {
            var metric = run.path("primaryMetric");
            if (!metric.path("scoreUnit").asString("").equals("us/op")) {
                throw new IllegalArgumentException("RuleJmh reports in us/op, not " + metric.path("scoreUnit"));
            }
            double micros = metric.path("score").asDouble();
            double error = metric.path("scoreError").asDouble(Double.NaN);
            var counts = run.path("secondaryMetrics");
            double units = counts.path("units").path("score").asDouble();
            double perSecond = 1e6 / micros;
            out.append(String.format(
                    Locale.ROOT,
                    "| %,d | %,.0f | %,.0f | %s%s | %.1f |%n",
                    run.path("params").path("rules").asInt(),
                    counts.path("evaluations").path("score").asDouble() / units * perSecond,
                    perSecond,
                    number(micros),
                    Double.isFinite(error) ? " ± " + number(error) : "",
                    counts.path("matches").path("score").asDouble() / units));
        }
        return out.toString();
    }

    /** "3 warm-up iterations of 2 s", "1 measured iteration of 200 ms", "no warm-up iterations". */
    private static String iterations(int count, String kind, JsonNode time) {
        if (count == 0) {
            return "no " + kind + " iterations";
        }
        return count + " " + kind + " iteration" + (count == 1 ? "" : "s") + " of " + time.asString("");
    }

    /** Three significant digits at least, no exponent. */
    private static String number(double value) {
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100
                ? "%,.0f"
                : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : magnitude >= 0.1 ? "%.3f" : "%.4f";
        return String.format(Locale.ROOT, pattern, value);
    }
}
