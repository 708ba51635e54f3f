package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * bench/wsload's JSON results (one {@code <subscribers>x<rate>.json} per scenario, optionally a
 * {@code .metrics.txt} of notify's meters beside it) as the fan-out report, next to the seeds' figures and our
 * targets: docs/benchmarks/fanout.md (bench/fanout.sh) and fanout-large-report.md (k6/run fanout-large).
 */
final class FanoutReport {

    private record Scenario(String name, String seed, String target) {}

    private static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put(
                "1000x1",
                new Scenario(
                        "1,000 subscribers x 1 msg/s (seed 000, Mainflux fan-out)",
                        "no loss; p95 130 ms (3 x 8-vCPU Kubernetes nodes)",
                        "zero loss, p95 <= 20 ms"));
        SCENARIOS.put(
                "8000x10",
                new Scenario(
                        "8,000 subscribers x 10 msg/s (seed 004, Redis/node fan-out)",
                        "800,000 received; mean 167 ms, max 386 ms (8 node processes)",
                        "zero loss, mean <= 50 ms"));
        SCENARIOS.put("10000x1", new Scenario("10,000 connections held, 1 msg/s", "-", "10,000 connected, zero loss"));
    }

    private FanoutReport() {}

    static String render(Path raw, String command) throws IOException {
        var out = new StringBuilder();
        out.append("# WebSocket fan-out\n\n");
        out.append("Command: `")
                .append(command)
                .append("` on ")
                .append(LocalDate.now())
                .append(", ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, ")
                .append(System.getProperty("os.name"))
                .append(
                        "; one throwaway embedded stack (broker, PostgreSQL and the four services) and the load client on the same box.\n");
        out.append(
                "The load client is `bench/wsload` (Go, one goroutine per connection): it connects the subscribers to one"
                        + " channel, waits until every one is subscribed, then posts EM300-TH uplinks to ingest at the given rate for"
                        + " the given time. Latency is the uplink's `receivedAt` at ingest to the subscriber reading the message, so it"
                        + " spans ingest, Kafka, the decoder, Kafka again and notify's fan-out. Loss = published x connected - received.\n\n");
        out.append(
                "| Scenario | Connected | Published | Expected | Received | Lost | Dropped (server) | Mean ms | p50 | p95 | p99 | Max |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        var order = new ArrayList<>(SCENARIOS.keySet());
        try (var files = Files.list(raw)) {
            files.map(p -> p.getFileName().toString())
                    .filter(f -> f.endsWith(".json"))
                    .map(f -> f.substring(0, f.length() - 5))
                    .filter(k -> !SCENARIOS.containsKey(k))
                    .sorted()
                    .forEach(order::add);
        }
        var results = new LinkedHashMap<String, JsonNode>();
        for (var key : order) {
            var path = raw.resolve(key + ".json");
            if (!Files.exists(path)) {
                continue;
            }
            var r = Json.read(path);
            results.put(key, r);
            var name = SCENARIOS.containsKey(key)
                    ? SCENARIOS.get(key).name()
                    : Fmt.grouped(r.get("subscribers")) + " subscribers x "
                            + Fmt.general(r.get("ratePerSecond").asDouble()) + " msg/s";
            out.append(row(name + ", " + Fmt.fixed(r.get("durationSeconds").asDouble(), 0) + " s", r))
                    .append('\n');
        }
        out.append("\n| Scenario | Seed | Target | Here |\n|---|---|---|---|\n");
        SCENARIOS.forEach((key, s) -> {
            var r = results.get(key);
            if (r != null) {
                out.append("| ")
                        .append(s.name())
                        .append(" | ")
                        .append(s.seed())
                        .append(" | ")
                        .append(s.target())
                        .append(" | lost ")
                        .append(Fmt.grouped(r.get("lost")))
                        .append(", mean ")
                        .append(Fmt.plain(r.get("latencyMeanMs")))
                        .append(" ms, p95 ")
                        .append(Fmt.plain(r.get("latencyP95Ms")))
                        .append(" ms, ")
                        .append(Fmt.grouped(r.get("connected")))
                        .append(" connected |\n");
            }
        });
        out.append('\n');
        for (var key : results.keySet()) {
            var metrics = raw.resolve(key + ".metrics.txt");
            if (Files.exists(metrics)) {
                var lines = Files.readAllLines(metrics).stream()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .map(l -> "`" + l + "`")
                        .toList();
                if (!lines.isEmpty()) {
                    out.append("notify-service meters after ")
                            .append(key)
                            .append(": ")
                            .append(String.join("; ", lines))
                            .append("\n\n");
                }
            }
        }
        return out.toString();
    }

    private static String row(String name, JsonNode r) {
        var cells = new ArrayList<>(
                List.of(name, Fmt.grouped(r.get("connected")) + " / " + Fmt.grouped(r.get("subscribers"))));
        for (var field : List.of("published", "expectedDeliveries", "received", "lost", "droppedByServer")) {
            cells.add(Fmt.grouped(r.get(field)));
        }
        for (var field : List.of("latencyMeanMs", "latencyP50Ms", "latencyP95Ms", "latencyP99Ms", "latencyMaxMs")) {
            cells.add(Fmt.plain(r.get(field)));
        }
        return "| " + String.join(" | ", cells) + " |";
    }

    /**
     * The verdict of one wsload run (k6/run fanout-large): a line of its figures, and whether nothing was lost, every
     * subscriber connected, every publish succeeded and something was published.
     */
    static boolean verdict(Path result, StringBuilder line) throws IOException {
        var r = Json.read(result);
        line.append("Subscribers ")
                .append(Fmt.plain(r.get("connected")))
                .append('/')
                .append(Fmt.plain(r.get("subscribers")))
                .append("; Expected: ")
                .append(Fmt.plain(r.get("expectedDeliveries")))
                .append("; Actual: ")
                .append(Fmt.plain(r.get("received")))
                .append("; lost ")
                .append(Fmt.plain(r.get("lost")))
                .append("; mean ")
                .append(Fmt.plain(r.get("latencyMeanMs")))
                .append(" ms, p95 ")
                .append(Fmt.plain(r.get("latencyP95Ms")))
                .append(" ms");
        return r.get("lost").asLong() == 0
                && r.get("connected").asLong() == r.get("subscribers").asLong()
                && r.get("publishFailures").asLong() == 0
                && r.get("published").asLong() > 0;
    }
}
