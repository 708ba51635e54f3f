package dev.iotpipeline.events.bench;

import dev.iotpipeline.events.EventJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Writes docs/benchmarks/jmh.md from JMH's JSON results (one file per module, from {@code bench/jmh.sh}): a table
 * per module of benchmark, score ± error, unit and the rate it implies, with the command and the machine. A tool
 * run by the script, not a test.
 */
public final class JmhReport {

    private JmhReport() {}

    /** Arguments: the Markdown file to write, the command that ran, a note on the machine (may be empty), then the JSON files. */
    public static void main(String[] args) throws IOException {
        var results = new ArrayList<Path>();
        for (int i = 3; i < args.length; i++) {
            results.add(Path.of(args[i]));
        }
        Files.writeString(Path.of(args[0]), render(args[1], args[2], results, machine()));
    }

    static String render(String command, String note, List<Path> results, String machine) throws IOException {
        var out = new StringBuilder();
        out.append("# JMH microbenchmarks of the per-record hot paths\n\n");
        out.append("Command: `")
                .append(command)
                .append("` (")
                .append(LocalDate.now(ZoneOffset.UTC))
                .append(").\n");
        out.append("Machine: ").append(machine).append(".\n");
        boolean first = true;
        for (var file : results) {
            var runs = EventJson.mapper().readTree(Files.readAllBytes(file));
            if (runs.isEmpty()) {
                continue;
            }
            if (first) {
                var run = runs.get(0);
                out.append("JVM: ")
                        .append(run.path("vmName").asString(""))
                        .append(' ')
                        .append(run.path("vmVersion").asString(""))
                        .append(" (JDK ")
                        .append(run.path("jdkVersion").asString(""))
                        .append("), JMH ")
                        .append(run.path("jmhVersion").asString(""))
                        .append("; ")
                        .append(run.path("forks").asInt())
                        .append(" fork, ")
                        .append(run.path("warmupIterations").asInt())
                        .append(" warm-up iterations of ")
                        .append(run.path("warmupTime").asString(""))
                        .append(", ")
                        .append(run.path("measurementIterations").asInt())
                        .append(" measured iterations of ")
                        .append(run.path("measurementTime").asString(""))
                        .append(", ")
                        .append(run.path("threads").asInt())
                        .append(" thread.\n");
                if (!note.isBlank()) {
                    out.append('\n').append(note.strip()).append('\n');
                }
                out.append("\nScores are average times per operation over the measured iterations; the error is JMH's")
                        .append(" 99.9% confidence interval. Best iteration: the fastest measured iteration's average,")
                        .append(" the one other load on the machine disturbed least. Raw JSON: [raw/](raw/)")
                        .append(" (`jmh-<module>.json`).\n");
                first = false;
            }
            out.append("\n## ").append(module(file)).append("\n\n");
            out.append("| benchmark | score ± error | best iteration | unit | per second (score) |\n")
                    .append("|---|---:|---:|---|---:|\n");
            for (var run : runs) {
                out.append(row(run)).append('\n');
            }
        }
        return out.toString();
    }

    /** {@code jmh-decoder.json} is the decoder's. */
    private static String module(Path file) {
        var name = file.getFileName().toString();
        return name.replaceFirst("^jmh-", "").replaceFirst("\\.json$", "");
    }

    private static String row(JsonNode run) {
        var benchmark = run.path("benchmark").asString("");
        // Class and method: the package is the module's.
        var parts = benchmark.split("\\.");
        var name = parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : benchmark;
        var metric = run.path("primaryMetric");
        double score = metric.path("score").asDouble();
        double error = metric.path("scoreError").asDouble(Double.NaN);
        var unit = metric.path("scoreUnit").asString("");
        // Other load on the machine only ever adds time, so the fastest iteration is the least disturbed one.
        double best = Double.NaN;
        for (var fork : metric.path("rawData")) {
            for (var iteration : fork) {
                best = Double.isNaN(best) ? iteration.asDouble() : Math.min(best, iteration.asDouble());
            }
        }
        return "| " + name + " | " + number(score) + (Double.isFinite(error) ? " ± " + number(error) : "") + " | "
                + number(best) + " | " + unit + " | " + perSecond(score, unit) + " |";
    }

    /** The rate an average time implies ({@code us/op} → ops/s); blank for other units. */
    private static String perSecond(double score, String unit) {
        double perOp = switch (unit) {
            case "ns/op" -> 1e-9;
            case "us/op" -> 1e-6;
            case "ms/op" -> 1e-3;
            case "s/op" -> 1;
            default -> Double.NaN;
        };
        if (!Double.isFinite(perOp) || score <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%,.0f", 1 / (score * perOp));
    }

    /** Three significant digits at least, no exponent. */
    private static String number(double value) {
        if (!Double.isFinite(value)) {
            return "n/a";
        }
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100 ? "%,.0f" : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, value);
    }

    private static String machine() throws IOException {
        var cpu = "";
        var cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            cpu = Files.readAllLines(cpuinfo).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip())
                    .findFirst()
                    .orElse("");
        }
        long memoryGiB = Math.round(((com.sun.management.OperatingSystemMXBean)
                                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                        .getTotalMemorySize()
                / (1024.0 * 1024 * 1024));
        return Runtime.getRuntime().availableProcessors() + " cores" + (cpu.isEmpty() ? "" : " (" + cpu + ")") + ", "
                + memoryGiB + " GiB, " + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
}
