package dev.iotpipeline.localstack.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;

/**
 * bench/restarts.sh's runs as docs/benchmarks/restarts.md: for each service and way of taking one of its two
 * instances down, how long until it was ready again, and POST and time_lapse percentiles over the minute after that,
 * read from k6's per-sample CSV, with the suite's own verdict on loss.
 */
final class RestartReport {

    /** How long after the instance is ready the figures look: the "minute after it is ready". */
    static final long WINDOW_MS = 60_000;

    private RestartReport() {}

    /** One case of one run: the samples in the window after ready, and what the k6 suite said. */
    record Case(
            double downToReadySeconds,
            double windowSeconds,
            List<Double> posts,
            List<Double> timeLapses,
            double accepted,
            double lost,
            double failedPosts,
            double failovers) {}

    static String render(Path dir, String command) throws IOException {
        var runs = runDirs(dir);
        // case name -> one Case per run that has it, in the order the first run ran them
        var cases = new LinkedHashMap<String, List<Case>>();
        for (var run : runs) {
            try (var entries = Files.list(run)) {
                for (var caseDir : entries.filter(Files::isDirectory)
                        .sorted(RestartReport::byOrder)
                        .toList()) {
                    cases.computeIfAbsent(caseDir.getFileName().toString(), name -> new ArrayList<>())
                            .add(read(caseDir));
                }
            }
        }
        var out = new StringBuilder("# Restarts under the seed load: one of two instances down and back\n\n");
        out.append("- **Command:** `").append(command).append("`\n");
        out.append("- **Runs:** ")
                .append(runs.size())
                .append(" fresh stacks (`./pipeline run --processes`, two ")
                .append("instances of every service); one case after another on each\n");
        out.append(
                        "- **Figures:** medians over the runs (range in brackets), latencies in ms of the POSTs and uplinks ")
                .append("sent in the ")
                .append(WINDOW_MS / 1000)
                .append(" s after the instance answered ready again (less ")
                .append(
                        "when the load ended sooner: *window*); *lost* = accepted uplinks not stored or not delivered by the end, summed over the runs\n\n");
        out.append("| case | down → ready (s) | window (s) | POST p50 | POST p99 | POST max | time_lapse p95 | ")
                .append("time_lapse p99 | accepted | failed POSTs | lost |\n");
        out.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (var entry : cases.entrySet()) {
            var runsOfCase = entry.getValue();
            out.append("| ")
                    .append(label(entry.getKey()))
                    .append(" | ")
                    .append(cell(
                            runsOfCase.stream().map(Case::downToReadySeconds).toList(), true))
                    .append(" | ")
                    .append(cell(runsOfCase.stream().map(Case::windowSeconds).toList(), true))
                    .append(" | ")
                    .append(cell(quantiles(runsOfCase, true, 0.5), false))
                    .append(" | ")
                    .append(cell(quantiles(runsOfCase, true, 0.99), false))
                    .append(" | ")
                    .append(cell(quantiles(runsOfCase, true, 1.0), false))
                    .append(" | ")
                    .append(cell(quantiles(runsOfCase, false, 0.95), false))
                    .append(" | ")
                    .append(cell(quantiles(runsOfCase, false, 0.99), false))
                    .append(" | ")
                    .append(Fmt.grouped(
                            runsOfCase.stream().mapToDouble(Case::accepted).sum()))
                    .append(" | ")
                    .append(failedCell(runsOfCase))
                    .append(" | ")
                    .append(Fmt.grouped(
                            runsOfCase.stream().mapToDouble(Case::lost).sum()))
                    .append(" |\n");
        }
        out.append("""

                *kill -9* and *SIGTERM* take the service's second instance down while the seed shape (`k6/run \
                suite1-closed-loop`, 500 devices, one POST a second each) runs against the first; the stack's \
                supervisor starts it again and it warms up before it answers ready, and its group moves partitions \
                back to it. For ingest the devices spread over its instances as behind a load balancer that checks \
                readiness (`INGEST_URLS`, `k6/lib/instances.js`): the down instance's devices send their uplinks to \
                the other one and come back once theirs answers ready; *failed POSTs* are those a device saw fail, \
                in brackets the uplinks the down instance refused and the balancer sent on (rounds run before \
                `k6/ingest-failover.js` existed counted those as failed too), and the samples leave out the refused \
                attempts (no server answered them). *a new instance joins*: a third instance of the service \
                starts (`./pipeline join`) while the load runs (ingest: a third of the devices wait on the first \
                instance for it); its *down → ready* runs from the command to the new instance's readiness. With \
                `INGEST_ALONE=1` (the rounds before 2026-11-30's twenty-sixth session), ingest's load starts once the \
                restarted or joined instance is ready and goes to it alone, and *ingest: no restart, warm* runs the \
                shape once more against that instance, now warm, its window from the load's start: the same first \
                second (every device's first POST on a new connection at once) without a restart. *lost* counts from the suite's own \
                checks: every accepted uplink stored in the \
                history and delivered to the WebSocket subscriber. The suite's latency thresholds are over its whole \
                run, the time the instance was down included, so its exit code (`k6-exit.txt` in the raw results) \
                says little here.
                """);
        return out.toString();
    }

    static Case read(Path caseDir) throws IOException {
        long down =
                Long.parseLong(Files.readString(caseDir.resolve("down-ms.txt")).trim());
        var readyFile = caseDir.resolve("ready-ms.txt");
        long ready = Files.exists(readyFile)
                ? Long.parseLong(Files.readString(readyFile).trim())
                : Long.MAX_VALUE;
        var posts = new ArrayList<Double>();
        var timeLapses = new ArrayList<Double>();
        long last = Long.MIN_VALUE;
        try (var lines = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(caseDir.resolve("k6/samples.csv.gz"))),
                StandardCharsets.UTF_8))) {
            var header = Arrays.asList(lines.readLine().split(","));
            int metric = header.indexOf("metric_name");
            int time = header.indexOf("timestamp");
            int value = header.indexOf("metric_value");
            int scenario = header.indexOf("scenario");
            for (var line = lines.readLine(); line != null; line = lines.readLine()) {
                var fields = line.split(",", -1);
                boolean post = fields[metric].equals("http_req_duration") && fields[scenario].equals("ingestion");
                boolean lapse = fields[metric].equals("time_lapse");
                if (!post && !lapse) {
                    continue;
                }
                // k6 stamps a sample when it ends (the response, the WebSocket receipt); the window is over what was
                // sent after ready, so the backlog of the time the instance was down does not count as its slowness.
                double ms = Double.parseDouble(fields[value]);
                long sent = Long.parseLong(fields[time]) - (long) ms;
                last = Math.max(last, sent);
                if (sent >= ready && sent < ready + WINDOW_MS) {
                    (post ? posts : timeLapses).add(ms);
                }
            }
        }
        var metrics =
                Json.read(caseDir.resolve("k6/suite1-closed-loop-summary.json")).path("metrics");
        double accepted =
                metrics.path("uplinks_accepted").path("values").path("count").asDouble(0);
        double stored =
                metrics.path("data_units_stored").path("values").path("count").asDouble(0);
        double delivered =
                metrics.path("data_units_received").path("values").path("count").asDouble(0);
        double failed = metrics.path("http_req_failed{scenario:ingestion}")
                .path("values")
                .path("passes")
                .asDouble(0);
        double failovers =
                metrics.path("ingest_failovers").path("values").path("count").asDouble(0);
        double window = ready == Long.MAX_VALUE ? 0 : Math.max(0, Math.min(WINDOW_MS, last - ready)) / 1000.0;
        boolean restarted =
                ready != Long.MAX_VALUE && !caseDir.getFileName().toString().endsWith("-warm");
        return new Case(
                restarted ? (ready - down) / 1000.0 : Double.NaN,
                window,
                posts,
                timeLapses,
                accepted,
                Math.max(0, accepted - Math.min(stored, delivered)),
                failed,
                failovers);
    }

    /** Failed POSTs summed over the runs, and how many of them an instance refused and the next one was sent. */
    private static String failedCell(List<Case> cases) {
        var failed = Fmt.grouped(cases.stream().mapToDouble(Case::failedPosts).sum());
        double failovers = cases.stream().mapToDouble(Case::failovers).sum();
        return failovers == 0 ? failed : failed + " (" + Fmt.grouped(failovers) + " sent on)";
    }

    /** Each run's quantile {@code q} of its POST (or time_lapse) samples in the window. */
    private static List<Double> quantiles(List<Case> cases, boolean posts, double q) {
        var values = new ArrayList<Double>();
        for (var c : cases) {
            var samples = new ArrayList<>(posts ? c.posts() : c.timeLapses());
            if (samples.isEmpty()) {
                continue;
            }
            samples.sort(null);
            // Nearest rank, as k6 reports its percentiles closely enough at these sample counts.
            values.add(samples.get(Math.max(0, (int) Math.ceil(q * samples.size()) - 1)));
        }
        return values;
    }

    private static String cell(List<Double> values, boolean seconds) {
        var present = values.stream().filter(v -> !v.isNaN()).toList();
        if (present.isEmpty()) {
            return "-";
        }
        var sorted = new TreeSet<>(present);
        var median = number(Fmt.median(present), seconds);
        return present.size() == 1
                ? median
                : median + " (" + number(sorted.first(), seconds) + "–" + number(sorted.last(), seconds) + ")";
    }

    private static String number(double value, boolean seconds) {
        return seconds || value < 100 ? Fmt.fixed(value, 1) : Fmt.grouped(value);
    }

    /** "decoder-kill" → "decoder: kill -9". */
    private static String label(String name) {
        var parts = name.split("-", 2);
        var how = Map.of(
                        "kill",
                        "kill -9",
                        "term",
                        "SIGTERM",
                        "join",
                        "a new instance joins",
                        "warm",
                        "no restart, warm (the run after, for comparison)")
                .getOrDefault(parts[1], parts[1]);
        return parts[0] + ": " + how;
    }

    private static int byOrder(Path a, Path b) {
        return Long.compare(order(a), order(b));
    }

    /** Cases in the order they ran: by the time their instance went down. */
    private static long order(Path caseDir) {
        try {
            return Long.parseLong(
                    Files.readString(caseDir.resolve("down-ms.txt")).trim());
        } catch (IOException | NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private static List<Path> runDirs(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("run-") && Files.isDirectory(p))
                    .sorted()
                    .toList();
        }
    }
}
