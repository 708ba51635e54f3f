package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * bench/fuzz.sh's jqwik reports and surefire XML as the Markdown table of docs/benchmarks/fuzz.md. The raw
 * directory holds, per module, the surefire {@code -output.txt} files (jqwik prints its report and each
 * property's statistics there) and the {@code TEST-*.xml} files (time, failures).
 */
final class FuzzReport {

    private static final Pattern REPORT = Pattern.compile("^timestamp = \\S+, (\\w+):(\\w+) = $");
    private static final Pattern STATS =
            Pattern.compile("^timestamp = \\S+, \\[(\\w+):(\\w+)\\] \\((\\d+)\\) outcome = $");
    private static final Pattern ENTRY = Pattern.compile("^\\s+(.*?)\\s+\\(\\s*(\\d+)\\) :\\s+([\\d.]+) %$");
    private static final Pattern KEY = Pattern.compile("^(tries|checks|seed)\\s+=\\s+(\\S+)");
    private static final Pattern TESTCASE = Pattern.compile(
            "<testcase name=\"(?<name>[^\"]*)\" classname=\"(?<classname>[^\"]*)\""
                    + " time=\"(?<time>[^\"]*)\"(?:/>|>(?<body>.*?)</testcase>)",
            Pattern.DOTALL);
    private static final Pattern FAILED = Pattern.compile("<(failure|error)\\b");
    private static final Pattern VALUE = Pattern.compile("value|decoded|evaluated");

    record Outcome(String label, long count) {}

    /** One property: what jqwik reported, surefire's time and whether it failed. */
    static final class Property {
        final Map<String, String> keys = new TreeMap<>();
        final List<Outcome> outcomes = new ArrayList<>();
        double time;
        boolean failed;
    }

    record Key(String cls, String property) {}

    /** The report, and whether it counts as passed (no property failed, at least one ran). */
    record Result(String markdown, boolean passed) {}

    private FuzzReport() {}

    static Map<Key, Property> properties(Path moduleDir) throws IOException {
        var found = new TreeMap<Key, Property>(Comparator.comparing(Key::cls).thenComparing(Key::property));
        if (!Files.isDirectory(moduleDir)) {
            return found;
        }
        for (var path : list(moduleDir, "", "-output.txt")) {
            Property current = null;
            List<Outcome> stats = null;
            for (var line : read(path).split("\n", -1)) {
                var m = STATS.matcher(line);
                if (m.find()) {
                    stats = found.computeIfAbsent(new Key(m.group(1), m.group(2)), k -> new Property()).outcomes;
                    current = null;
                    continue;
                }
                m = REPORT.matcher(line);
                if (m.find()) {
                    current = found.computeIfAbsent(new Key(m.group(1), m.group(2)), k -> new Property());
                    stats = null;
                    continue;
                }
                m = ENTRY.matcher(line);
                if (stats != null && m.find()) {
                    stats.add(new Outcome(m.group(1), Long.parseLong(m.group(2))));
                    continue;
                }
                m = KEY.matcher(line);
                if (current != null && m.find()) {
                    current.keys.put(m.group(1), m.group(2));
                }
            }
        }
        // Read as text: surefire copies the statistics into the XML, where a label may hold a character XML forbids.
        for (var path : list(moduleDir, "TEST-", ".xml")) {
            var cases = TESTCASE.matcher(read(path));
            while (cases.find()) {
                var classname = cases.group("classname");
                var property =
                        found.get(new Key(classname.substring(classname.lastIndexOf('.') + 1), cases.group("name")));
                if (property != null) {
                    var time = cases.group("time");
                    property.time = time.isEmpty() ? 0 : Double.parseDouble(time);
                    var body = cases.group("body");
                    property.failed = body != null && FAILED.matcher(body).find();
                }
            }
        }
        return found;
    }

    /** The four most frequent outcomes, and every outcome that is a value (how many inputs got all the way). */
    static String outcomeSummary(List<Outcome> outcomes) {
        long sum = outcomes.stream().mapToLong(Outcome::count).sum();
        long total = sum == 0 ? 1 : sum;
        var ranked = outcomes.stream()
                .sorted(Comparator.comparingLong(o -> -o.count()))
                .toList();
        var shown = new ArrayList<String>();
        for (int i = 0; i < ranked.size(); i++) {
            var o = ranked.get(i);
            if (i < 4 || VALUE.matcher(o.label()).find()) {
                double share = 100.0 * o.count() / total;
                shown.add(o.label() + " " + Fmt.fixed(share, o.count() * 100 >= total ? 0 : 2) + "%");
            }
        }
        int more = outcomes.size() - shown.size();
        return String.join("; ", shown) + (more > 0 ? "; " + more + " more" : "");
    }

    static Result render(Path raw, List<String> modules) throws IOException {
        long totalTries = 0;
        long totalFailed = 0;
        double totalTime = 0;
        var rows = new ArrayList<String>();
        for (var module : modules) {
            for (var entry : properties(raw.resolve(module)).entrySet()) {
                var data = entry.getValue();
                long tries = Long.parseLong(data.keys.getOrDefault("tries", "0"));
                int failed = data.failed ? 1 : 0;
                totalTries += tries;
                totalFailed += failed;
                totalTime += data.time;
                rows.add("| " + module + " | `" + entry.getKey().cls() + "."
                        + entry.getKey().property() + "` | "
                        + Fmt.grouped((double) tries) + " | " + data.keys.getOrDefault("seed", "?") + " | "
                        + Fmt.fixed(data.time, 1) + " | " + failed + " | " + outcomeSummary(data.outcomes) + " |");
            }
        }
        var s = new StringBuilder();
        s.append("| module | property | tries | seed | time (s) | failures | outcomes (share of tries) |\n");
        s.append("|---|---|---|---|---|---|---|\n");
        s.append(String.join("\n", rows)).append("\n\n");
        s.append("**Total: ")
                .append(Fmt.grouped((double) totalTries))
                .append(" generated inputs over ")
                .append(rows.size())
                .append(" properties, ")
                .append(totalFailed)
                .append(" failing, ")
                .append(Fmt.fixed(totalTime / 60, 1))
                .append(" min of property time.**\n");
        return new Result(s.toString(), totalFailed == 0 && !rows.isEmpty());
    }

    private static List<Path> list(Path dir, String prefix, String suffix) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> {
                        var name = p.getFileName().toString();
                        return name.startsWith(prefix) && name.endsWith(suffix);
                    })
                    .sorted()
                    .toList();
        }
    }

    private static String read(Path path) throws IOException {
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        return decoder.decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
    }
}
