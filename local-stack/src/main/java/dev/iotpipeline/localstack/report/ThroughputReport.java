package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;
import tools.jackson.databind.JsonNode;

/**
 * bench/throughput.sh's runs (DIR/run-N/{single,batched}.json from bench/postload, beside each the
 * {@code -stored.json} of the drain wait) as docs/benchmarks/throughput.md, with a verdict per issue-26 target.
 */
final class ThroughputReport {

    private static final double TARGET_SECONDS = 60;

    /** A phase of every run, with the stored rate its target asks for and whether that target allows errors. */
    private record Phase(String name, String label, double target, boolean noErrors) {}

    private static final List<Phase> PHASES =
            List.of(new Phase("single", "single-POST", 5_000, true), new Phase("batched", "batched", 40_000, false));

    /** One phase of one run: the generator's report and what the history and the stack's CPU said about it. */
    private record Run(String run, JsonNode load, JsonNode store) {

        double seconds() {
            return load.get("durationSeconds").asDouble();
        }

        double acceptedRate() {
            return load.get("uplinksAccepted").asDouble() / seconds();
        }

        double storedRate() {
            return store.get("stored").asDouble()
                    / (seconds() + store.get("drainSeconds").asDouble());
        }

        double stackShare() {
            return store.get("stackCpuSeconds").asDouble()
                    / (store.get("stackWallSeconds").asDouble()
                            * store.get("cores").asDouble());
        }

        double stackMicrosPerUplink() {
            return store.get("stackCpuSeconds").asDouble()
                    * 1e6
                    / Math.max(1, store.get("stored").asDouble());
        }

        boolean drained() {
            return store.get("drained").asBoolean();
        }
    }

    private ThroughputReport() {}

    /** The first run's warm-up as " of 60 s at 5,000 requests/s", or nothing when it had none. */
    private static String warmup(List<Path> runDirs) {
        var file = runDirs.isEmpty() ? null : runDirs.getFirst().resolve("warmup.json");
        if (file == null || !Files.exists(file)) {
            return "";
        }
        var warmup = Json.read(file);
        return String.format(
                Locale.ROOT,
                " of %.0f s at %,.0f requests/s",
                warmup.get("durationSeconds").asDouble(),
                warmup.get("ratePerSecond").asDouble());
    }

    static String render(Path dir, String command) throws IOException {
        var phases = new LinkedHashMap<Phase, List<Run>>();
        var runDirs = runDirs(dir);
        for (var phase : PHASES) {
            var runs = new ArrayList<Run>();
            for (var run : runDirs) {
                var load = run.resolve(phase.name() + ".json");
                var store = run.resolve(phase.name() + "-stored.json");
                if (Files.exists(load) && Files.exists(store)) {
                    runs.add(new Run(run.getFileName().toString(), Json.read(load), Json.read(store)));
                }
            }
            phases.put(phase, runs);
        }
        var out = new StringBuilder("# Throughput: uplinks accepted and stored per second\n\n");
        out.append("- **Command:** `").append(command).append("`\n");
        out.append("- **Machine:** ").append(machine(dir.resolve("env.txt"))).append('\n');
        out.append("- **Runs:** ")
                .append(runDirs.size())
                .append(runDirs.size() == 1 ? " fresh stack" : " fresh stacks")
                .append("; on each a warm-up")
                .append(warmup(runDirs))
                .append(" (not counted), then ")
                .append(
                        "the single-POST phase, then the batched one, each starting once the one before was all stored\n");
        out.append("- **Figures:** medians over the runs, the range in brackets. Stored/s = uplinks stored ÷ (phase ")
                .append(
                        "duration + drain time), the drain time running from the phase's end until notify's history held ")
                .append("every accepted uplink. Errors, summed over the runs: non-202 responses + transport errors + ")
                .append("requests not sent in time (every connection busy). CPU share = CPU seconds ÷ (wall seconds × ")
                .append("cores): the generator's over its run; the stack's (services, broker, PostgreSQL) from the ")
                .append(
                        "phase's start until all was stored. Latency: request sent to response read, at the generator\n\n");
        out.append("## Verdict\n\n| target | result | verdict |\n|---|---|---|\n");
        phases.forEach((phase, runs) -> out.append(verdict(phase, runs)));
        out.append("\n## Per phase\n\n| figure |");
        phases.forEach(
                (phase, runs) -> out.append(' ').append(heading(phase, runs)).append(" |"));
        out.append("\n|---|").append("---|".repeat(phases.size())).append('\n');
        row(out, "uplinks/s accepted", phases, Run::acceptedRate, Fmt::grouped);
        row(out, "uplinks/s stored", phases, Run::storedRate, Fmt::grouped);
        out.append("| errors: non-202 + transport + not sent in time |");
        phases.forEach((phase, runs) -> out.append(' ')
                .append(Fmt.grouped(sum(runs, "non202")))
                .append(" + ")
                .append(Fmt.grouped(sum(runs, "transportErrors")))
                .append(" + ")
                .append(Fmt.grouped(sum(runs, "notSentInTime")))
                .append(" |"));
        out.append('\n');
        for (var p : List.of("P50", "P95", "P99", "Max")) {
            row(
                    out,
                    "latency " + p.toLowerCase() + ", ms",
                    phases,
                    r -> r.load().get("latency" + p + "Ms").asDouble(),
                    ThroughputReport::number);
        }
        row(out, "drain time, s", phases, r -> r.store().get("drainSeconds").asDouble(), v -> Fmt.fixed(v, 1));
        row(
                out,
                "generator CPU share, %",
                phases,
                r -> r.load().get("cpuShare").asDouble() * 100,
                v -> Fmt.fixed(v, 1));
        row(out, "stack CPU share, %", phases, r -> r.stackShare() * 100, v -> Fmt.fixed(v, 1));
        row(out, "stack CPU per uplink stored, µs", phases, Run::stackMicrosPerUplink, ThroughputReport::number);
        out.append("\n## Runs\n\n| run | phase | accepted | stored | drain s | non-202 | transport | not sent in time "
                + "| status codes |\n|---|---|---|---|---|---|---|---|---|\n");
        phases.forEach((phase, runs) -> runs.forEach(r -> out.append("| ")
                .append(r.run())
                .append(" | ")
                .append(phase.name())
                .append(" | ")
                .append(Fmt.grouped(r.load().get("uplinksAccepted")))
                .append(" | ")
                .append(Fmt.grouped(r.store().get("stored")))
                .append(" | ")
                .append(r.drained() ? Fmt.plain(r.store().get("drainSeconds")) : "not all stored")
                .append(" | ")
                .append(Fmt.grouped(r.load().get("non202")))
                .append(" | ")
                .append(Fmt.grouped(r.load().get("transportErrors")))
                .append(" | ")
                .append(Fmt.grouped(r.load().get("notSentInTime")))
                .append(" | ")
                .append(statuses(r.load()))
                .append(" |\n")));
        return out.toString();
    }

    /** Met when every run stored at least the target rate for the target's time, all of it, without errors if asked. */
    private static String verdict(Phase phase, List<Run> runs) {
        var target = "≥ " + Fmt.grouped(phase.target()) + " " + phase.label() + " uplinks/s stored for "
                + Fmt.grouped(TARGET_SECONDS) + " s" + (phase.noErrors() ? " with 0 errors" : "");
        if (runs.isEmpty()) {
            return "| " + target + " | no runs | not shown |\n";
        }
        var lowest = runs.stream().mapToDouble(Run::storedRate).min().orElseThrow();
        long errors = sum(runs, "errors");
        var result = Fmt.grouped(median(runs, Run::storedRate)) + "/s stored (lowest run " + Fmt.grouped(lowest)
                + "/s), errors " + Fmt.grouped(errors) + ", "
                + Fmt.grouped(runs.getFirst().seconds()) + " s";
        var missed = new ArrayList<String>();
        if (lowest < phase.target()) {
            missed.add("a run stored less");
        }
        if (phase.noErrors() && errors > 0) {
            missed.add("errors");
        }
        if (runs.stream().anyMatch(r -> !r.drained())) {
            missed.add("not all stored within the drain timeout");
        }
        if (runs.stream().anyMatch(r -> r.seconds() < TARGET_SECONDS)) {
            missed.add("shorter than " + Fmt.grouped(TARGET_SECONDS) + " s");
        }
        return "| " + target + " | " + result + " | "
                + (missed.isEmpty() ? "**met**" : "**not met** (" + String.join(", ", missed) + ")") + " |\n";
    }

    private static String heading(Phase phase, List<Run> runs) {
        if (runs.isEmpty()) {
            return phase.label();
        }
        var load = runs.getFirst().load();
        int batch = load.get("batch").asInt();
        return phase.label() + ": " + Fmt.grouped(load.get("ratePerSecond").asDouble()) + " req/s × " + batch
                + (batch == 1 ? " uplink" : " uplinks");
    }

    private static void row(
            StringBuilder out,
            String label,
            Map<Phase, List<Run>> phases,
            ToDoubleFunction<Run> key,
            DoubleFunction<String> format) {
        out.append("| ").append(label).append(" |");
        phases.forEach((phase, runs) -> {
            var values = runs.stream().map(r -> key.applyAsDouble(r)).toList();
            out.append(' ').append(cell(values, format)).append(" |");
        });
        out.append('\n');
    }

    /** The median with the range, e.g. "4,998 (4,990–5,000)". */
    private static String cell(List<Double> values, DoubleFunction<String> format) {
        if (values.isEmpty()) {
            return "-";
        }
        var median = format.apply(Fmt.median(values));
        if (values.size() == 1) {
            return median;
        }
        var sorted = values.stream().sorted().toList();
        return median + " (" + format.apply(sorted.getFirst()) + "–" + format.apply(sorted.getLast()) + ")";
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> key) {
        return Fmt.median(runs.stream().map(r -> key.applyAsDouble(r)).toList());
    }

    private static long sum(List<Run> runs, String field) {
        return runs.stream().mapToLong(r -> r.load().get(field).asLong()).sum();
    }

    private static String number(double value) {
        return value >= 100 ? Fmt.grouped(value) : Fmt.fixed(value, 1);
    }

    private static String statuses(JsonNode load) {
        var codes = new ArrayList<String>();
        load.get("statusCounts").properties().forEach(e -> codes.add(e.getKey() + ": " + Fmt.grouped(e.getValue())));
        return codes.isEmpty() ? "-" : String.join("; ", codes.stream().sorted().toList());
    }

    /** env.txt's "key: value" lines as one line: "2 cores (model); jdk; generator". */
    private static String machine(Path env) throws IOException {
        if (!Files.exists(env)) {
            return Runtime.getRuntime().availableProcessors() + " cores (of the machine that wrote the report)";
        }
        var values = new LinkedHashMap<String, String>();
        for (var line : Files.readAllLines(env)) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                values.put(line.substring(0, colon), line.substring(colon + 2).strip());
            }
        }
        var parts = new ArrayList<String>();
        parts.add(values.getOrDefault("cores", "?") + " cores"
                + (values.containsKey("cpu") ? " (" + values.get("cpu") + ")" : ""));
        if (values.containsKey("jdk")) {
            parts.add(values.get("jdk"));
        }
        if (values.containsKey("generator")) {
            parts.add("generator: " + values.get("generator"));
        }
        return String.join("; ", parts);
    }

    private static List<Path> runDirs(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().matches("run-\\d+") && Files.isDirectory(p))
                    .sorted(Comparator.comparingInt(
                            p -> Integer.parseInt(p.getFileName().toString().substring(4))))
                    .toList();
        }
    }
}
