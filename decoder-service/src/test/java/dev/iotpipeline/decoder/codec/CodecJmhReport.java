package dev.iotpipeline.decoder.codec;

import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The Markdown table of docs/benchmarks/decoder.md from {@link CodecJmh}'s JSON results ({@code -rf json}): decodes
 * per second on one thread and µs per decode for each case; or, with runs of an older commit after {@code --}, the
 * median decodes/s of this checkout's runs and of the older commit's, and their ratio. A tool run by
 * {@code bench/decoder.sh}, not a test.
 */
public final class CodecJmhReport {

    private CodecJmhReport() {}

    /** Arguments: this checkout's JSON files, then optionally {@code --} and the older commit's. Prints Markdown. */
    public static void main(String[] args) throws IOException {
        var files = List.of(args);
        int split = files.indexOf("--");
        var now = paths(split < 0 ? files : files.subList(0, split));
        var before = split < 0 ? List.<Path>of() : paths(files.subList(split + 1, files.size()));
        System.out.print(render(now, before));
    }

    static String render(List<Path> now, List<Path> before) throws IOException {
        var nowRuns = read(now);
        var beforeRuns = read(before);
        var out = new StringBuilder();
        out.append(settings(nowRuns)).append("\n\n");
        var measured = new ArrayList<String>();
        if (before.isEmpty() && now.size() == 1) {
            out.append("| codec | decodes/s on one thread | µs per decode (± 99.9 % confidence) |\n");
            out.append("|---|---:|---:|\n");
            var results = nowRuns.getFirst();
            for (var entry : CodecJmh.CASES.entrySet()) {
                var run = results.get(entry.getKey());
                if (run == null) {
                    continue;
                }
                measured.add(entry.getKey());
                double micros = micros(run, "score");
                double error = micros(run, "scoreError");
                out.append(String.format(
                        Locale.ROOT,
                        "| %s | %,.0f | %s%s |%n",
                        entry.getValue().label(),
                        1e6 / micros,
                        number(micros),
                        Double.isFinite(error) ? " ± " + number(error) : ""));
            }
        } else {
            out.append("| codec | decodes/s now (median of ")
                    .append(runs(now.size()))
                    .append(") | decodes/s before (median of ")
                    .append(runs(before.size()))
                    .append(") | now ÷ before |\n");
            out.append("|---|---:|---:|---:|\n");
            for (var entry : CodecJmh.CASES.entrySet()) {
                double rate = medianRate(nowRuns, entry.getKey());
                double earlier = medianRate(beforeRuns, entry.getKey());
                if (Double.isNaN(rate) && Double.isNaN(earlier)) {
                    continue;
                }
                measured.add(entry.getKey());
                out.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %s | %s |%n",
                        entry.getValue().label(),
                        rate(rate),
                        rate(earlier),
                        Double.isNaN(rate) || Double.isNaN(earlier)
                                ? "—"
                                : String.format(Locale.ROOT, "%.2f", rate / earlier)));
            }
        }
        if (out.indexOf("| failed |") >= 0) {
            out.append("\nfailed: the case threw in that build and JMH skipped it (JMH's output says why; an older"
                    + " engine may refuse a script).\n");
        }
        var missing = new ArrayList<>(CodecJmh.CASES.keySet());
        missing.removeAll(measured);
        if (!missing.isEmpty()) {
            out.append("\nNot measured in this run: ")
                    .append(String.join(", ", missing))
                    .append(".\n");
        }
        return out.toString();
    }

    /** JMH's settings, from the first result. */
    private static String settings(List<Map<String, JsonNode>> runs) {
        var run = runs.stream()
                .flatMap(results -> results.values().stream())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no CodecJmh results"));
        int forks = run.path("forks").asInt();
        return String.format(
                Locale.ROOT,
                "JMH %s on JDK %s (%s %s): per case %d fork%s, %s, %s, one thread. The score is the average time"
                        + " per decode over the measured iterations.",
                run.path("jmhVersion").asString(""),
                run.path("jdkVersion").asString(""),
                run.path("vmName").asString(""),
                run.path("vmVersion").asString(""),
                forks,
                forks == 1 ? "" : "s",
                iterations(run.path("warmupIterations").asInt(), "warm-up", run.path("warmupTime")),
                iterations(run.path("measurementIterations").asInt(), "measured", run.path("measurementTime")));
    }

    /** Per file, its CodecJmh results by codec case. */
    private static List<Map<String, JsonNode>> read(List<Path> files) throws IOException {
        var all = new ArrayList<Map<String, JsonNode>>();
        for (var file : files) {
            var results = new HashMap<String, JsonNode>();
            for (var run : EventJson.mapper().readTree(Files.readAllBytes(file))) {
                if (run.path("benchmark").asString("").endsWith(".CodecJmh.decode")) {
                    results.put(run.path("params").path("codec").asString(""), run);
                }
            }
            all.add(results);
        }
        return all;
    }

    /** Median decodes/s of a case over the runs that have it; NaN when none has. */
    private static double medianRate(List<Map<String, JsonNode>> runs, String codec) {
        var rates = new ArrayList<Double>();
        for (var results : runs) {
            var run = results.get(codec);
            if (run != null) {
                rates.add(1e6 / micros(run, "score"));
            }
        }
        if (rates.isEmpty()) {
            return Double.NaN;
        }
        rates.sort(Double::compare);
        int middle = rates.size() / 2;
        return rates.size() % 2 == 1 ? rates.get(middle) : (rates.get(middle - 1) + rates.get(middle)) / 2;
    }

    /** The primary metric's score or error in µs per decode, whatever time unit JMH reported in. */
    private static double micros(JsonNode run, String field) {
        var metric = run.path("primaryMetric");
        double value = metric.path(field).asDouble(Double.NaN);
        double factor = switch (metric.path("scoreUnit").asString("")) {
            case "ns/op" -> 1e-3;
            case "us/op" -> 1;
            case "ms/op" -> 1e3;
            case "s/op" -> 1e6;
            default ->
                throw new IllegalArgumentException(
                        "CodecJmh runs in average time mode, not " + metric.path("scoreUnit"));
        };
        return value * factor;
    }

    private static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "failed" : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    private static String runs(int count) {
        return count + (count == 1 ? " run" : " runs");
    }

    /** "3 warm-up iterations of 2 s", "1 measured iteration of 200 ms", "no warm-up iterations". */
    private static String iterations(int count, String kind, JsonNode time) {
        if (count == 0) {
            return "no " + kind + " iterations";
        }
        return count + " " + kind + " iteration" + (count == 1 ? "" : "s") + " of " + time.asString("");
    }

    /** Three significant digits at least, no exponent. */
    static String number(double value) {
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100
                ? "%,.0f"
                : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : magnitude >= 0.1 ? "%.3f" : "%.4f";
        return String.format(Locale.ROOT, pattern, value);
    }

    private static List<Path> paths(List<String> names) {
        return names.stream().map(Path::of).toList();
    }
}
