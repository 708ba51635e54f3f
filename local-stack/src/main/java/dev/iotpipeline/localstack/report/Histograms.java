package dev.iotpipeline.localstack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Prometheus histograms from two scrapes of {@code /actuator/prometheus}: what was observed in between, per series,
 * and its quantiles interpolated within the buckets, as Prometheus' {@code histogram_quantile} does.
 */
final class Histograms {

    private static final Pattern BUCKET = Pattern.compile("^(\\w+)_bucket\\{(.*)}\\s+(\\S+)$");
    private static final Pattern LE = Pattern.compile(",?le=\"([^\"]+)\"");

    /** Cumulative counts by upper bound (seconds), of one series. */
    record Buckets(TreeMap<Double, Double> cumulative) {

        double count() {
            return cumulative.isEmpty() ? 0 : cumulative.lastEntry().getValue();
        }

        /** The q-quantile in seconds; NaN when nothing was observed. */
        double quantile(double q) {
            double total = count();
            if (total <= 0) {
                return Double.NaN;
            }
            double rank = q * total;
            double lowerBound = 0;
            double lowerCount = 0;
            for (var entry : cumulative.entrySet()) {
                if (entry.getValue() >= rank) {
                    if (entry.getKey().isInfinite()) {
                        return lowerBound;
                    }
                    double inBucket = entry.getValue() - lowerCount;
                    return inBucket <= 0
                            ? entry.getKey()
                            : lowerBound + (entry.getKey() - lowerBound) * (rank - lowerCount) / inBucket;
                }
                lowerBound = entry.getKey();
                lowerCount = entry.getValue();
            }
            return lowerBound;
        }
    }

    private Histograms() {}

    /** Every histogram series of a scrape, keyed "metric{labels without le}". */
    static Map<String, Buckets> read(Path scrape) throws IOException {
        var series = new LinkedHashMap<String, Buckets>();
        for (var line : Files.readAllLines(scrape)) {
            var m = BUCKET.matcher(line);
            if (!m.matches()) {
                continue;
            }
            var le = LE.matcher(m.group(2));
            if (!le.find()) {
                continue;
            }
            double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
            var labels = le.replaceFirst("").replaceFirst("^,", "");
            series.computeIfAbsent(m.group(1) + "{" + labels + "}", k -> new Buckets(new TreeMap<>()))
                    .cumulative()
                    .put(bound, Double.parseDouble(m.group(3)));
        }
        return series;
    }

    /** What {@code after} observed beyond {@code before}, per series. */
    static Map<String, Buckets> delta(Map<String, Buckets> before, Map<String, Buckets> after) {
        var delta = new LinkedHashMap<String, Buckets>();
        after.forEach((key, buckets) -> {
            var earlier = before.get(key);
            var counts = new TreeMap<Double, Double>();
            buckets.cumulative()
                    .forEach((bound, count) -> counts.put(
                            bound,
                            count - (earlier == null ? 0 : earlier.cumulative().getOrDefault(bound, 0.0))));
            delta.put(key, new Buckets(counts));
        });
        return delta;
    }

    static List<String> keys(Map<String, Buckets> series, String metric) {
        var keys = new ArrayList<String>();
        for (var key : series.keySet()) {
            if (key.startsWith(metric + "{")) {
                keys.add(key);
            }
        }
        return keys;
    }
}
