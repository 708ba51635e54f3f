package dev.iotpipeline.notify.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The functions {@code GET /data-units/aggregate} computes per bucket, named as in its {@code fn} parameter. */
enum AggregateFunction {
    AVG,
    MIN,
    MAX,
    SUM,
    COUNT;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** A comma-separated list of labels, in the order given, each once. */
    static List<AggregateFunction> parse(String fn) {
        var functions = new ArrayList<AggregateFunction>();
        for (var label : fn.split(",", -1)) {
            var function = Arrays.stream(values())
                    .filter(f -> f.label().equals(label.strip()))
                    .findFirst()
                    .orElseThrow(() -> QueryParameters.invalid(
                            "fn", "fn: '" + label + "' is not one of avg, min, max, sum, count"));
            if (!functions.contains(function)) {
                functions.add(function);
            }
        }
        return List.copyOf(functions);
    }

    /** A bucket as JSON: its start and the asked-for functions. */
    static Map<String, Object> render(HistoryStore.Bucket bucket, List<AggregateFunction> functions) {
        var out = new LinkedHashMap<String, Object>();
        out.put("start", bucket.start());
        for (var f : functions) {
            out.put(
                    f.label(),
                    switch (f) {
                        case AVG -> bucket.avg();
                        case MIN -> bucket.min();
                        case MAX -> bucket.max();
                        case SUM -> bucket.sum();
                        case COUNT -> bucket.count();
                    });
        }
        return out;
    }
}
