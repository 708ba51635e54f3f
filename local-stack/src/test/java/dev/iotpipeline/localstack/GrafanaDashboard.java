package dev.iotpipeline.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** A Grafana dashboard's panels and the Prometheus metric names their PromQL expressions read. */
final class GrafanaDashboard {

    static final Path IOT_PIPELINE = ComposeModel.ROOT.resolve("deploy/grafana/dashboards/iot-pipeline.json");

    /** Words that can stand where a metric name could but are not one. */
    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "atan2",
            "inf",
            "nan");
    // Clauses whose parentheses hold label names, not expressions.
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern STRING = Pattern.compile("\"(\\\\.|[^\"\\\\])*\"|'(\\\\.|[^'\\\\])*'|`[^`]*`");
    private static final Pattern LABEL_MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w:$.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

    private final Map<String, List<String>> expressionsByPanel;

    private GrafanaDashboard(Map<String, List<String>> expressionsByPanel) {
        this.expressionsByPanel = expressionsByPanel;
    }

    static GrafanaDashboard read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel with queries, rows' nested panels included, by title. */
    static GrafanaDashboard parse(String json) {
        var byPanel = new LinkedHashMap<String, List<String>>();
        collect(PipelineClient.json(json).path("panels"), byPanel);
        return new GrafanaDashboard(byPanel);
    }

    private static void collect(JsonNode panels, Map<String, List<String>> byPanel) {
        for (var panel : panels) {
            collect(panel.path("panels"), byPanel);
            if (panel.path("type").asString().equals("row")) {
                continue;
            }
            var expressions = new java.util.ArrayList<String>();
            for (var target : panel.path("targets")) {
                expressions.add(target.path("expr").asString());
            }
            byPanel.put(panel.path("title").asString(), expressions);
        }
    }

    Map<String, List<String>> expressionsByPanel() {
        return expressionsByPanel;
    }

    /** The metric names each panel reads. */
    Map<String, Set<String>> metricsByPanel() {
        var byPanel = new LinkedHashMap<String, Set<String>>();
        expressionsByPanel.forEach((panel, expressions) -> {
            var names = new TreeSet<String>();
            expressions.forEach(expression -> names.addAll(metricNames(expression)));
            byPanel.put(panel, names);
        });
        return byPanel;
    }

    /** Per panel, the names it reads that are not among {@code exposed}; empty when every panel has its data. */
    Map<String, Set<String>> missing(Set<String> exposed) {
        var missing = new TreeMap<String, Set<String>>();
        metricsByPanel().forEach((panel, names) -> {
            var absent = new TreeSet<>(names);
            absent.removeAll(exposed);
            if (!absent.isEmpty()) {
                missing.put(panel, absent);
            }
        });
        return missing;
    }

    /**
     * The metric names a PromQL expression selects. Series names are compared as Prometheus stores them (a
     * histogram's {@code _bucket}, a counter's {@code _total}), so no suffix is stripped. What is removed first:
     * string literals (label values), label matchers, ranges and subqueries ({@code [$__rate_interval]}), and the
     * label lists of by/without/on/ignoring/group_*; then an identifier followed by "(" is a function or
     * aggregation, and keywords are skipped.
     */
    static Set<String> metricNames(String expression) {
        var stripped = STRING.matcher(expression).replaceAll("\"\"");
        stripped = LABEL_MATCHERS.matcher(stripped).replaceAll(" ");
        stripped = RANGE.matcher(stripped).replaceAll(" ");
        stripped = GROUPING.matcher(stripped).replaceAll(" ");
        var names = new LinkedHashSet<String>();
        var m = IDENTIFIER.matcher(stripped);
        while (m.find()) {
            var word = m.group(1);
            boolean call = m.group(2) != null;
            if (!call && !KEYWORDS.contains(word.toLowerCase())) {
                names.add(word);
            }
        }
        return names;
    }
}
