package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** bench/ingest.sh's k6 JSON summaries ({@code ingest-<mode>-<phase>-<run>-summary.json}) as docs/benchmarks/ingest.md. */
final class IngestReport {

    private record Run(double reqs, double uplinks, long failed, double p50, double p95, double p99) {}

    private IngestReport() {}

    static List<Run> runs(Path out, String mode, String phase) throws IOException {
        var prefix = "ingest-" + mode + "-" + phase + "-";
        List<Path> paths;
        try (var files = Files.list(out)) {
            paths = files.filter(p -> {
                        var name = p.getFileName().toString();
                        return name.startsWith(prefix) && name.endsWith("-summary.json");
                    })
                    .sorted()
                    .toList();
        }
        var found = new ArrayList<Run>();
        for (var path : paths) {
            var data = Json.read(path);
            var m = data.get("metrics");
            double seconds = data.get("state").get("testRunDurationMs").asDouble() / 1000;
            var duration = m.get("http_req_duration").get("values");
            found.add(new Run(
                    m.get("http_reqs").get("values").get("count").asDouble() / seconds,
                    m.path("uplinks_accepted").path("values").path("count").asDouble(0) / seconds,
                    m.get("http_req_failed").get("values").get("passes").asLong(),
                    duration.get("med").asDouble(),
                    duration.get("p(95)").asDouble(),
                    duration.get("p(99)").asDouble()));
        }
        return found;
    }

    private static double med(List<Run> runs, Function<Run, Double> key) {
        return Fmt.median(runs.stream().map(key).toList());
    }

    private static String range(List<Run> runs, Function<Run, Double> key) {
        if (runs.isEmpty()) {
            return "-";
        }
        var values = runs.stream().map(key).toList();
        return Fmt.grouped(values.stream().min(Double::compare).orElseThrow()) + "–"
                + Fmt.grouped(values.stream().max(Double::compare).orElseThrow());
    }

    private static long errors(List<Run> runs) {
        return runs.stream().mapToLong(Run::failed).sum();
    }

    private static String row(String label, List<Run> runs, Function<Run, Double> key) {
        return "| " + label + " | " + Fmt.grouped(med(runs, key)) + " | " + range(runs, key) + " | " + errors(runs)
                + " |\n";
    }

    private static String latency(List<Run> runs) {
        return "| fixed-rate run: latency p50 / p95 / p99, ms | " + Fmt.fixed(med(runs, Run::p50), 1) + " / "
                + Fmt.fixed(med(runs, Run::p95), 1) + " / " + Fmt.fixed(med(runs, Run::p99), 1) + " | | |\n";
    }

    static String render(Path out, String command) throws IOException {
        var alone = Map.of(
                "noop",
                runs(out, "noop", "alone"),
                "single",
                runs(out, "single", "alone"),
                "batch",
                runs(out, "batch", "alone"),
                "latency",
                runs(out, "latency", "alone"));
        var full = Map.of("single", runs(out, "single", "pipeline"), "latency", runs(out, "latency", "pipeline"));
        double noop = med(alone.get("noop"), Run::reqs);
        var envFile = out.resolve("env.txt");
        var env = Files.exists(envFile) ? Files.readString(envFile).strip() : "";
        var s = new StringBuilder();
        s.append("# Ingest benchmark\n\n");
        s.append("Command: `")
                .append(command)
                .append("`, on this 2-core machine. The k6 load generator runs on the same box and\n");
        s.append(
                "competes with the service, the Kafka broker (acks=all, idempotent producer) and, in the second table,\n");
        s.append("the rest of the pipeline for the two cores. Each figure is the median of ")
                .append(alone.get("single").size())
                .append(" runs, the range in the next column. Raw k6 summaries: `")
                .append(out)
                .append("/`.\n\n");
        if (!env.isEmpty()) {
            s.append("```\n").append(env).append("\n```\n\n");
        }
        s.append("## Ingest alone (downstream consumers not running)\n\n");
        s.append("| measurement | median | range | failed requests (all runs) |\n|---|---|---|---|\n");
        s.append(row("HTTP ceiling: `/bench/noop` (202 without Kafka), req/s", alone.get("noop"), Run::reqs));
        s.append(row("single-uplink POSTs/s, 202 after acks=all", alone.get("single"), Run::uplinks));
        s.append(row("batched uplinks/s (100 per request)", alone.get("batch"), Run::uplinks));
        s.append(row("fixed-rate run: achieved req/s", alone.get("latency"), Run::reqs));
        s.append(latency(alone.get("latency")));
        s.append('\n');
        s.append("Single-uplink ingest reaches **")
                .append(Fmt.fixed(med(alone.get("single"), Run::uplinks) / noop * 100, 0))
                .append(" %** of the HTTP ceiling measured with the same generator in the same run.\n\n");
        s.append(
                "## Whole pipeline running (decoder, rules, history writer and live fan-out consume as ingest takes)\n\n");
        s.append("| measurement | median | range | failed requests (all runs) |\n|---|---|---|---|\n");
        s.append(row("single-uplink POSTs/s", full.get("single"), Run::uplinks));
        s.append(row("fixed-rate run: achieved req/s", full.get("latency"), Run::reqs));
        s.append(latency(full.get("latency")));
        return s.toString();
    }
}
