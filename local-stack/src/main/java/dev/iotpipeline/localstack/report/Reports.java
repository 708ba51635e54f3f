package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The one report tool of the bench scripts and k6 suites ({@code ./pipeline report <kind> ...}): Markdown on
 * stdout from the raw results a run left behind. Single k6 runs write their own report in their handleSummary
 * (k6/lib/report.js); this covers what aggregates several runs or a non-k6 load client.
 */
public final class Reports {

    static final String USAGE = """
            usage: ./pipeline report <kind> ...
              fanout DIR                 bench/wsload results in DIR as the fan-out report (RUN_COMMAND: the command shown)
              fanout-verdict FILE        one wsload result's figures; exit 1 when anything was lost or not connected
              fuzz DIR MODULE=TRIES...   the jqwik reports of bench/fuzz.sh; exit 1 when a property failed or none ran
              ingest DIR COMMAND         bench/ingest.sh's k6 summaries as the ingest report (medians over runs)
              capacity DIR RATE50        k6/capacity.sh's runs: writes DIR/capacity-report.md and DIR/capacity.json
              rate50 DIR                 half the median maximum sustainable rate of DIR/ramp-*/ (rounded down)
              section FILE               a run's report one heading level down, for a report that collects runs
              latency DIR COMMAND        bench/latency.sh's runs (DIR/run-N/{cold,warm}/ and scrapes) as the latency report
              throughput DIR COMMAND     bench/throughput.sh's runs (DIR/run-N/, bench/postload's JSON) as the throughput report
              restarts DIR COMMAND       bench/restarts.sh's runs (DIR/run-N/<service>-<how>/) as the restart report
            """;

    private static final Pattern SUBSECTION = Pattern.compile("^## (Thresholds|Maximum|50 %|Slowdown|Seed)");

    private Reports() {}

    public static void main(String[] args) throws IOException {
        System.exit(run(args));
    }

    static int run(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.print(USAGE);
            return 2;
        }
        var path = Path.of(args[1]);
        var rest = Arrays.asList(args).subList(2, args.length);
        switch (args[0]) {
            case "fanout" -> System.out.print(FanoutReport.render(path, env("RUN_COMMAND", "bench/fanout.sh")));
            case "fanout-verdict" -> {
                var line = new StringBuilder();
                boolean ok = FanoutReport.verdict(path, line);
                System.out.println(line);
                return ok ? 0 : 1;
            }
            case "fuzz" -> {
                var result = FuzzReport.render(
                        path, rest.stream().map(m -> m.split("=")[0]).toList());
                System.out.print(result.markdown());
                return result.passed() ? 0 : 1;
            }
            case "ingest" -> System.out.print(IngestReport.render(path, String.join(" ", rest)));
            case "capacity" ->
                System.out.println(CapacityReport.write(
                        path,
                        rest.isEmpty() ? CapacityReport.rate50(path) : Long.parseLong(rest.getFirst()),
                        System.getenv()));
            case "rate50" -> System.out.println(CapacityReport.rate50(path));
            case "section" -> System.out.print(section(Files.readString(path)));
            case "latency" -> System.out.print(LatencyReport.render(path, String.join(" ", rest)));
            case "throughput" -> System.out.print(ThroughputReport.render(path, String.join(" ", rest)));
            case "restarts" -> System.out.print(RestartReport.render(path, String.join(" ", rest)));
            default -> {
                System.err.print(USAGE);
                return 2;
            }
        }
        return 0;
    }

    /** Each heading one level down ("# " to "## "; the suite reports' own sections to "### "). */
    static String section(String markdown) {
        return String.join(
                "\n",
                Arrays.stream(markdown.split("\n", -1))
                        .map(line -> SUBSECTION
                                .matcher(line.replaceFirst("^# ", "## "))
                                .replaceFirst("### $1"))
                        .toList());
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
