package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.codec.Decoded;
import dev.iotpipeline.events.FieldMapping;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The "processor": codec output to canonical measurements. Mapped fields are renamed, scaled or dropped;
 * unmapped numeric fields pass through under their own names; non-numeric values stay attributes. Public so the
 * registry's test endpoint maps exactly as the pipeline does.
 */
public final class FieldMapper {

    private FieldMapper() {}

    public static Decoded apply(Decoded decoded, Map<String, FieldMapping> mapping) {
        if (mapping.isEmpty()) {
            return decoded;
        }
        var measurements = map(decoded.measurements(), mapping);
        var attributes = new LinkedHashMap<String, Object>();
        decoded.attributes().forEach((field, value) -> {
            var rule = mapping.get(field);
            if (rule == null || !rule.dropped()) {
                attributes.put(rule != null && rule.name() != null ? rule.name() : field, value);
            }
        });
        var history = decoded.history().stream()
                .map(point -> new Decoded.HistoryPoint(point.measuredAt(), map(point.measurements(), mapping)))
                .toList();
        return new Decoded(measurements, attributes, history);
    }

    private static Map<String, Double> map(Map<String, Double> fields, Map<String, FieldMapping> mapping) {
        var measurements = new LinkedHashMap<String, Double>();
        fields.forEach((field, value) -> {
            var rule = mapping.get(field);
            if (rule == null) {
                measurements.putIfAbsent(field, value);
            } else if (!rule.dropped()) {
                measurements.put(rule.name() != null ? rule.name() : field, rule.apply(value));
            }
        });
        return measurements;
    }
}
