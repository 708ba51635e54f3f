package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * bench/latency.sh's runs as docs/benchmarks/latency.md: per phase (cold: the first run after the stack started;
 * warm: the run right after it), the medians over runs of POST and time_lapse percentiles from the k6 summaries,
 * of each hop's percentiles from the histograms scraped before and after the phase, and of each process's CPU per
 * uplink over the phase.
 */
final class LatencyReport {

    static final String SUITE = "suite1-closed-loop";
    private static final String[] PHASES = {"cold", "warm"};
    private static final String[] STATS = {"med", "p(95)", "p(99)", "max"};
    private static final double[] QUANTILES = {0.5, 0.95, 0.99};
    /** bench/wsload's report fields for the same columns as {@link #STATS}. */
    private static final String[] SIDE_FIELDS = {"latencyP50Ms", "latencyP95Ms", "latencyP99Ms", "latencyMaxMs"};
    /**
     * The histograms that make up the data path, in its order; hops a run did not observe are left out. The first is
     * ingest's own time for the suite's accepted POSTs (its labels in the scrape's order): against k6's POST figures
     * it says how much of a POST's time is spent outside the server, waiting for a core or in k6.
     */
    private static final List<String> HOPS = List.of(
            "http_server_requests_seconds{error=\"none\",exception=\"none\",method=\"POST\",outcome=\"SUCCESS\","
                    + "status=\"202\",uri=\"/sensor-data/{channel}/encoded/{deviceType}\"}",
            "ingest_kafka_send_seconds{}",
            "pipeline_hop_latency_seconds{hop=\"decoder-poll\"}",
            "pipeline_hop_latency_seconds{hop=\"decoder-publish\"}",
            "pipeline_hop_latency_seconds{hop=\"rules-poll\"}",
            "pipeline_hop_latency_seconds{hop=\"notify-poll\"}",
            "pipeline_hop_latency_seconds{hop=\"websocket-write\"}",
            "notify_delivery_latency_seconds{stream=\"data-units\"}",
            "pipeline_hop_latency_seconds{hop=\"ingest-to-postgresql\"}");

    /** bench/lib.sh's part_cpu names, in the data path's order; parts that share a process come first. */
    private static final List<String> PARTS =
            List.of("ingest", "decoder", "rules", "notify", "broker", "postgresql", "launcher", "k6");

    private LatencyReport() {}

    static String render(Path dir, String command) throws IOException {
        var runs = runDirs(dir);
        var out = new StringBuilder();
        out.append("# Latency: seed 003 suite 1 in its closed-loop shape, cold and warm\n\n");
        out.append("- **Command:** `").append(command).append("`\n");
        out.append("- **Runs:** ")
                .append(runs.size())
                .append(" fresh stacks; each ran `k6/run ")
                .append(SUITE)
                .append("` twice: cold (the first run after the stack started, no warm-up) and warm (right after)\n");
        out.append("- **Figures:** medians over the runs, in ms, with the range in brackets; the k6 load generator ")
                .append("shares the machine's cores with the stack\n\n");
        for (var phase : PHASES) {
            out.append("## ").append(phase).append("\n\n");
            out.append("| figure | p50 | p95 | p99 | max |\n|---|---|---|---|---|\n");
            out.append(k6Row("ingest POST", runs, phase, "http_req_duration{scenario:ingestion}"));
            out.append(k6Row("time_lapse (ingest receivedAt to WebSocket receipt)", runs, phase, "time_lapse"));
            if (runs.stream().allMatch(run -> Files.isRegularFile(sidePath(run, phase)))) {
                out.append(sideRow(runs, phase));
            }
            var counts = new ArrayList<String>();
            for (var run : runs) {
                var m = summary(run, phase).get("metrics");
                counts.add(Fmt.grouped(m.path("uplinks_accepted")
                                .path("values")
                                .path("count")
                                .asDouble(0)) + " / "
                        + Fmt.grouped(m.path("data_units_received")
                                .path("values")
                                .path("count")
                                .asDouble(0)));
            }
            out.append("\nAccepted / delivered per run: ")
                    .append(String.join(", ", counts))
                    .append(".\n\n");
            out.append("Per hop (from the services' histograms; bucket resolution):\n\n");
            out.append("| hop | p50 | p95 | p99 | observations |\n|---|---|---|---|---|\n");
            var deltas = new ArrayList<Map<String, Histograms.Buckets>>();
            for (var run : runs) {
                deltas.add(Histograms.delta(
                        Histograms.read(run.resolve(phase + "-before.prom")),
                        Histograms.read(run.resolve(phase + "-after.prom"))));
            }
            for (var hop : HOPS) {
                var row = new StringBuilder("| `").append(hop).append('`');
                var observed = new ArrayList<Double>();
                for (var delta : deltas) {
                    var buckets = delta.get(hop);
                    observed.add(buckets == null ? 0 : buckets.count());
                }
                if (Fmt.median(observed) <= 0) {
                    continue;
                }
                for (var q : QUANTILES) {
                    var values = new ArrayList<Double>();
                    for (var delta : deltas) {
                        var buckets = delta.get(hop);
                        if (buckets != null && buckets.count() > 0) {
                            values.add(buckets.quantile(q) * 1000);
                        }
                    }
                    row.append(" | ").append(cell(values));
                }
                row.append(" | ").append(Fmt.grouped(Fmt.median(observed))).append(" |\n");
                out.append(row);
            }
            out.append('\n');
            if (runs.stream().allMatch(run -> Files.isRegularFile(cpuPath(run, phase)))) {
                out.append(cpuTable(runs, phase));
            }
        }
        return out.toString();
    }

    private static Path cpuPath(Path run, String phase) {
        return run.resolve(phase + "-cpu.txt");
    }

    /**
     * Each process's user + system CPU over the phase per uplink accepted, and its JIT compiler threads' share: on
     * two shared cores, what every latency figure above follows.
     */
    private static String cpuTable(List<Path> runs, String phase) throws IOException {
        var perRun = new ArrayList<Map<String, double[]>>();
        var parts = new ArrayList<String>();
        for (var run : runs) {
            double uplinks = summary(run, phase)
                    .path("metrics")
                    .path("uplinks_accepted")
                    .path("values")
                    .path("count")
                    .asDouble(0);
            var usage = new LinkedHashMap<String, double[]>();
            double[] stack = {0, 0};
            for (var line : Files.readAllLines(cpuPath(run, phase))) {
                var fields = line.trim().split("\\s+");
                if (fields.length != 3 || uplinks <= 0) {
                    continue;
                }
                double[] perUplink = {
                    Double.parseDouble(fields[1]) * 1e6 / uplinks, Double.parseDouble(fields[2]) * 1e6 / uplinks
                };
                usage.put(fields[0], perUplink);
                if (!fields[0].equals("k6")) {
                    stack[0] += perUplink[0];
                    stack[1] += perUplink[1];
                }
                if (!parts.contains(fields[0])) {
                    parts.add(fields[0]);
                }
            }
            usage.put(STACK, stack);
            perRun.add(usage);
        }
        parts.sort(Comparator.comparingInt(LatencyReport::partOrder));
        parts.add(parts.contains("k6") ? parts.size() - 1 : parts.size(), STACK);
        var out = new StringBuilder("CPU by process over the phase (user + system from /proc, each process with its ")
                .append("children; bench/lib.sh's `part_cpu`, k6's own `times`), µs per uplink accepted; of it, the ")
                .append("JVM's JIT compiler threads:\n\n")
                .append("| process | µs per uplink | of which JIT |\n|---|---|---|\n");
        for (var part : parts) {
            var total = new ArrayList<Double>();
            var jit = new ArrayList<Double>();
            for (var usage : perRun) {
                var values = usage.get(part);
                if (values != null) {
                    total.add(values[0]);
                    jit.add(values[1]);
                }
            }
            var label = part.equals(STACK)
                    ? "**" + part + "**"
                    : part.contains("+") ? "one JVM: " + part.replace("+", ", ") : part;
            out.append("| ")
                    .append(label)
                    .append(" | ")
                    .append(cell(total))
                    .append(" | ")
                    .append(part.equals("postgresql") || part.equals("k6") ? "-" : cell(jit))
                    .append(" |\n");
        }
        return out.append('\n').toString();
    }

    private static final String STACK = "stack (all but k6)";

    /** Known parts in {@link #PARTS}' order; a part of several processes' names ("ingest+decoder...") first. */
    private static int partOrder(String part) {
        int known = PARTS.indexOf(part);
        return known >= 0 ? known : -1;
    }

    private static String k6Row(String label, List<Path> runs, String phase, String metric) throws IOException {
        var row = new StringBuilder("| ").append(label);
        for (var stat : STATS) {
            var values = new ArrayList<Double>();
            for (var run : runs) {
                var value = summary(run, phase)
                        .path("metrics")
                        .path(metric)
                        .path("values")
                        .path(stat);
                if (value.isNumber()) {
                    values.add(value.asDouble());
                }
            }
            row.append(" | ").append(cell(values));
        }
        return row.append(" |\n").toString();
    }

    /** Where bench/latency.sh's SIDE_SUBSCRIBER=1 left bench/wsload's report of a phase. */
    private static Path sidePath(Path run, String phase) {
        return run.resolve(phase + "-side.json");
    }

    /** time_lapse at the Go subscriber beside k6's: what a reader that costs next to nothing receives. */
    private static String sideRow(List<Path> runs, String phase) {
        var row = new StringBuilder("| time_lapse at a second, Go subscriber (bench/wsload, SIDE_SUBSCRIBER=1)");
        var reports = runs.stream().map(run -> Json.read(sidePath(run, phase))).toList();
        for (var field : SIDE_FIELDS) {
            var values = new ArrayList<Double>();
            for (var report : reports) {
                var value = report.path(field);
                if (value.isNumber()) {
                    values.add(value.asDouble());
                }
            }
            row.append(" | ").append(cell(values));
        }
        return row.append(" |\n").toString();
    }

    /** The median with the range, e.g. "12.3 (10.1–15.0)". */
    private static String cell(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        var sorted = new TreeSet<>(values);
        var median = number(Fmt.median(values));
        return values.size() == 1 ? median : median + " (" + number(sorted.first()) + "–" + number(sorted.last()) + ")";
    }

    private static String number(double ms) {
        return ms >= 100 ? Fmt.grouped(ms) : Fmt.fixed(ms, 1);
    }

    private static final Map<Path, JsonNode> SUMMARIES = new LinkedHashMap<>();

    private static JsonNode summary(Path run, String phase) {
        return SUMMARIES.computeIfAbsent(run.resolve(phase).resolve(SUITE + "-summary.json"), Json::read);
    }

    private static List<Path> runDirs(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("run-") && Files.isDirectory(p))
                    .sorted()
                    .toList();
        }
    }
}
