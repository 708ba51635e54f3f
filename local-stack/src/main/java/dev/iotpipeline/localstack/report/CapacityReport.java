package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A k6/capacity.sh run directory as capacity-report.md and capacity.json: reads ramp-N/capacity-ramp-result.json,
 * steady-N/ and stressed-N/capacity-steady-result.json and the k6 summaries next to them (for their threshold
 * verdicts); gives the maxima with their spread, and the stressed runs' slowdown against the unstressed ones.
 */
final class CapacityReport {

    private static final List<String> PERCENTILES = List.of("p50", "p95", "p99");

    private CapacityReport() {}

    /** The steady rate: half the median of the ramps' maximum sustainable rates, rounded down. */
    static long rate50(Path dir) throws IOException {
        var maxima = load(dir, "ramp-", "capacity-ramp-result.json").stream()
                .map(r -> r.get("maxSustainable").asDouble())
                .toList();
        return (long) (Fmt.median(maxima) / 2);
    }

    static List<ObjectNode> load(Path dir, String prefix, String file) throws IOException {
        List<Path> runs;
        try (var dirs = Files.list(dir)) {
            runs = dirs.filter(d -> d.getFileName().toString().startsWith(prefix) && Files.exists(d.resolve(file)))
                    .sorted(Comparator.comparingInt(CapacityReport::repeat))
                    .toList();
        }
        var loaded = new ArrayList<ObjectNode>();
        for (var run : runs) {
            var result = (ObjectNode) Json.read(run.resolve(file));
            var failed = result.arrayNode();
            try (var files = Files.list(run)) {
                var summary = files.filter(f -> f.getFileName().toString().endsWith("-summary.json"))
                        .sorted()
                        .findFirst();
                if (summary.isPresent()) {
                    for (var metric : Json.read(summary.get()).path("metrics").properties()) {
                        for (var threshold :
                                metric.getValue().path("thresholds").properties()) {
                            if (!threshold.getValue().path("ok").asBoolean(true)
                                    && !threshold.getKey().endsWith(">=0")) {
                                failed.add(metric.getKey() + " " + threshold.getKey());
                            }
                        }
                    }
                }
            }
            result.put("run", run.getFileName().toString());
            result.set("failedThresholds", failed);
            loaded.add(result);
        }
        return loaded;
    }

    private static int repeat(Path run) {
        var name = run.getFileName().toString();
        var suffix = name.substring(name.lastIndexOf('-') + 1);
        return suffix.matches("\\d+") ? Integer.parseInt(suffix) : 0;
    }

    /** Mean, sample standard deviation, min, max and n of the values present; null when there is none. */
    static ObjectNode spread(List<JsonNode> values) {
        var present = values.stream().filter(v -> v != null && v.isNumber()).toList();
        if (present.isEmpty()) {
            return null;
        }
        var doubles = present.stream().mapToDouble(JsonNode::asDouble).toArray();
        double mean = Arrays.stream(doubles).sum() / doubles.length;
        double squares =
                Arrays.stream(doubles).map(v -> (v - mean) * (v - mean)).sum();
        var node = Json.MAPPER.createObjectNode();
        node.put("mean", mean);
        node.put("stdev", doubles.length > 1 ? Math.sqrt(squares / (doubles.length - 1)) : 0.0);
        node.set(
                "min",
                present.stream()
                        .min(Comparator.comparingDouble(JsonNode::asDouble))
                        .orElseThrow());
        node.set(
                "max",
                present.stream()
                        .max(Comparator.comparingDouble(JsonNode::asDouble))
                        .orElseThrow());
        node.put("n", doubles.length);
        return node;
    }

    static String ms(JsonNode v) {
        if (v == null || !v.isNumber()) {
            return "n/a";
        }
        return v.asDouble() >= 100 ? Fmt.grouped(v.asDouble()) : Fmt.fixed(v.asDouble(), 1);
    }

    static String spreadText(JsonNode s, String unit) {
        if (s == null || s.isNull()) {
            return "n/a";
        }
        double mean = s.get("mean").asDouble();
        var cv = mean != 0 ? ", cv " + Fmt.fixed(100 * s.get("stdev").asDouble() / mean, 0) + " %" : "";
        return ms(s.get("mean")) + unit + " ± " + ms(s.get("stdev")) + " (min " + ms(s.get("min")) + ", max "
                + ms(s.get("max")) + cv + ")";
    }

    private static JsonNode step(JsonNode run) {
        return run.get("steps").get(0);
    }

    /**
     * Writes capacity.json and capacity-report.md into {@code dir} and returns the Markdown. {@code env} gives
     * RUN_COMMAND, MACHINE, STRESS_ARGS, INGEST_URL and NOTIFY_URL.
     */
    static String write(Path dir, long rate50, Map<String, String> env) throws IOException {
        var ramps = load(dir, "ramp-", "capacity-ramp-result.json");
        var steady = load(dir, "steady-", "capacity-steady-result.json");
        var stressed = load(dir, "stressed-", "capacity-steady-result.json");
        var maxima = spread(ramps.stream().map(r -> r.get("maxSustainable")).toList());
        var slowdown = Json.MAPPER.createArrayNode();
        for (var kind : List.of("http", "timeLapse")) {
            for (var p : PERCENTILES) {
                var base = spread(
                        steady.stream().map(r -> step(r).get(kind).get(p)).toList());
                var load = spread(
                        stressed.stream().map(r -> step(r).get(kind).get(p)).toList());
                var entry = slowdown.addObject();
                entry.put("figure", (kind.equals("http") ? "POST" : "time_lapse") + " " + p);
                entry.set("unstressed", base);
                entry.set("stressed", load);
                if (base != null && load != null && base.get("mean").asDouble() != 0) {
                    entry.put(
                            "slowdown",
                            load.get("mean").asDouble() / base.get("mean").asDouble());
                } else {
                    entry.putNull("slowdown");
                }
            }
        }
        var date = OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx"));
        var out = Json.MAPPER.createObjectNode();
        out.put("date", date);
        out.put("command", env.getOrDefault("RUN_COMMAND", ""));
        out.put("machine", env.getOrDefault("MACHINE", ""));
        out.put("stress", env.getOrDefault("STRESS_ARGS", ""));
        out.put("rate50", rate50);
        out.set("maxima", maxima);
        out.set("ramps", out.arrayNode().addAll(ramps));
        out.set("steady", out.arrayNode().addAll(steady));
        out.set("stressed", out.arrayNode().addAll(stressed));
        out.set("slowdown", slowdown);
        Files.writeString(
                dir.resolve("capacity.json"),
                Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(out));

        var lines = new ArrayList<>(List.of("# Capacity and stress (seed 002)", "", "- **Run:** " + date));
        if (!out.get("command").asString().isEmpty()) {
            lines.add("- **Command:** `" + out.get("command").asString() + "`");
        }
        if (!out.get("machine").asString().isEmpty()) {
            lines.add("- **Machine:** " + out.get("machine").asString());
        }
        lines.add("- **Target:** ingest " + env.getOrDefault("INGEST_URL", "http://127.0.0.1:8080") + ", notify "
                + env.getOrDefault("NOTIFY_URL", "http://127.0.0.1:8083"));
        if (!ramps.isEmpty()) {
            var r = ramps.getFirst();
            lines.add("- **Ramp:** single EM300-TH uplinks, steps of " + Fmt.plain(r.get("stepSeconds"))
                    + " s; a step fails on any"
                    + " failed or unsent uplink, POST p99 > " + Fmt.plain(r.get("httpP99Bound"))
                    + " ms or time_lapse p99 > "
                    + Fmt.plain(r.get("e2eP99Bound"))
                    + " ms (receivedAt at ingest -> WebSocket, sampled on probe devices)");
        }
        lines.add(
                !stressed.isEmpty()
                        ? "- **Stress:** `stress-ng " + out.get("stress").asString() + "` on the same machine"
                        : "- **Stress:** none (stress-ng missing)");
        lines.addAll(List.of(
                "",
                "## Maximum sustainable rate",
                "",
                "| ramp | maximum sustainable | first failing step | why |",
                "|---|---|---|---|"));
        for (var r : ramps) {
            var first = r.get("firstFailing");
            boolean failing = first != null && !first.isNull();
            var why = new ArrayList<String>();
            if (failing) {
                first.get("reasons").values().forEach(reason -> why.add(reason.asString()));
            }
            lines.add("| " + r.get("run").asString() + " | " + Fmt.grouped(r.get("maxSustainable")) + "/s | "
                    + (failing ? Fmt.grouped(first.get("rate")) + "/s" : "none") + " | "
                    + (failing ? String.join("; ", why) : "no step failed") + " |");
        }
        lines.addAll(List.of(
                "",
                "Over " + ramps.size() + " ramps: " + spreadText(maxima, "/s")
                        + ". Steady runs below at 50 % of the median: **" + Fmt.grouped((double) rate50)
                        + " uplinks/s**.",
                ""));
        lines.addAll(List.of(
                "## 50 % of capacity, without and with stress",
                "",
                "| run | accepted | stored | POST p50 / p95 / p99 | time_lapse p50 / p95 / p99 | thresholds |",
                "|---|---|---|---|---|---|"));
        var both = new ArrayList<>(steady);
        both.addAll(stressed);
        for (var r : both) {
            var step = step(r);
            var failed = new ArrayList<String>();
            r.get("failedThresholds").values().forEach(t -> failed.add(t.asString()));
            lines.add("| " + r.get("run").asString() + " | " + Fmt.grouped(step.get("accepted")) + " of "
                    + Fmt.grouped(step.get("planned")) + " | " + Fmt.grouped(r.get("stored")) + " | "
                    + String.join(
                            " / ",
                            PERCENTILES.stream()
                                    .map(p -> ms(step.get("http").get(p)))
                                    .toList()) + " | "
                    + String.join(
                            " / ",
                            PERCENTILES.stream()
                                    .map(p -> ms(step.get("timeLapse").get(p)))
                                    .toList()) + " | "
                    + (failed.isEmpty() ? "ok" : "FAILED: " + String.join(", ", failed)) + " |");
        }
        lines.addAll(List.of(
                "",
                "## Slowdown under stress",
                "",
                "| figure (ms) | unstressed, mean ± sd | stressed, mean ± sd | slowdown |",
                "|---|---|---|---|"));
        for (var s : slowdown.values()) {
            var factor = s.get("slowdown").isNull() || s.get("slowdown").asDouble() == 0
                    ? "n/a"
                    : Fmt.fixed(s.get("slowdown").asDouble(), 2) + "x";
            lines.add("| " + s.get("figure").asString() + " | " + spreadText(s.get("unstressed"), "") + " | "
                    + spreadText(s.get("stressed"), "") + " | " + factor + " |");
        }
        lines.addAll(List.of(
                "",
                "## Seed 002",
                "",
                "Kafka on Mesos (3 n1-standard-4 brokers, 10 KB messages, 1 partition replicated to every broker): the "
                        + "baseline overloaded after 850 s at two clients x 700 msg/s, so 50 % was 350 msg/s per client; the "
                        + "stress (`stress`, 98 % of memory over 4 threads, 10 GB of disk writes each) results were never "
                        + "reported (\"running at the moment\"), and no variance was given although the experiments were "
                        + "\"performed multiple times\".",
                "",
                "Everything here (stack, k6, stress-ng) shares one machine; each k6 run has its own directory with its "
                        + "report, summary and HTML dashboard.",
                ""));
        var markdown = String.join("\n", lines);
        Files.writeString(dir.resolve("capacity-report.md"), markdown);
        return Objects.requireNonNull(markdown);
    }
}
