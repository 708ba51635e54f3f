package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.codec.Decoded;
import dev.iotpipeline.events.FieldMapping;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The "processor": codec output to canonical measurements. Mapped fields are renamed, scaled or dropped;
 * unmapped numeric fields pass through under their own names; non-numeric values stay attributes.
 */
final class FieldMapper {

    private FieldMapper() {
    }

    static Decoded apply(Decoded decoded, Map<String, FieldMapping> mapping) {
        if (mapping.isEmpty()) {
            return decoded;
        }
        var measurements = new LinkedHashMap<String, Double>();
        decoded.measurements().forEach((field, value) -> {
            var rule = mapping.get(field);
            if (rule == null) {
                measurements.putIfAbsent(field, value);
            } else if (!rule.dropped()) {
                measurements.put(rule.name() != null ? rule.name() : field, rule.apply(value));
            }
        });
        var attributes = new LinkedHashMap<String, Object>();
        decoded.attributes().forEach((field, value) -> {
            var rule = mapping.get(field);
            if (rule == null || !rule.dropped()) {
                attributes.put(rule != null && rule.name() != null ? rule.name() : field, value);
            }
        });
        return new Decoded(measurements, attributes);
    }
}
