package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.Decoded;
import dev.iotpipeline.events.EventJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * Codec output and an example's expected JSON as the same flat map of path to number, boolean or string, the way
 * the JavaScript codec flattens what a script returns, so the two can be compared key by key.
 */
final class FlatValues {

    /** The attribute under which a codec's warnings ride along; compared apart from data. */
    static final String WARNINGS = Decoded.WARNINGS;

    private FlatValues() {}

    /**
     * Nested objects as {@code a.b}, array items by index ({@code list.0.x}, a top-level array as {@code 0.x}),
     * numbers as doubles (those a double cannot hold left out, as the codec leaves out NaN and infinities), null
     * left out.
     */
    static Map<String, Object> of(JsonNode data) {
        var flat = new LinkedHashMap<String, Object>();
        if (data != null) {
            if (data.isObject() || data.isArray()) {
                children("", data, flat);
            } else {
                leaf("", data, flat);
            }
        }
        return flat;
    }

    /** What a codec decoded, measurements and attributes together, without its warnings. */
    static Map<String, Object> of(Decoded decoded) {
        var flat = new LinkedHashMap<String, Object>();
        decoded.measurements().forEach((name, value) -> {
            if (value != null && Double.isFinite(value)) {
                flat.put(name, value);
            }
        });
        decoded.attributes().forEach((name, value) -> {
            if (!WARNINGS.equals(name)) {
                attribute(name, value, flat);
            }
        });
        return flat;
    }

    /** The warnings a codec reported, in its order; none when it reported none. */
    static List<String> warnings(Decoded decoded) {
        return decoded.attributes().get(WARNINGS) instanceof List<?> list
                ? list.stream().map(String::valueOf).toList()
                : List.of();
    }

    /**
     * Numbers equal within a relative 1e-9 (a script's float arithmetic against a YAML literal), anything else
     * exactly: dates arrive as the ISO-8601 strings JavaScript's toISOString writes, as in the vendor's examples.
     */
    static boolean same(Object expected, Object actual) {
        if (expected instanceof Double a && actual instanceof Double b) {
            return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
        }
        return Objects.equals(expected, actual);
    }

    private static void children(String prefix, JsonNode node, Map<String, Object> flat) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                leaf(prefix + i, node.get(i), flat);
            }
        } else {
            node.properties().forEach(field -> leaf(prefix + field.getKey(), field.getValue(), flat));
        }
    }

    private static void leaf(String name, JsonNode value, Map<String, Object> flat) {
        if (value.isObject() || value.isArray()) {
            children(name + ".", value, flat);
        } else if (value.isNumber()) {
            double number = value.asDouble();
            if (Double.isFinite(number)) {
                flat.put(name, number);
            }
        } else if (value.isBoolean()) {
            flat.put(name, value.asBoolean());
        } else if (!value.isNull() && !value.isMissingNode()) {
            flat.put(name, value.isString() ? value.asString() : value.toString());
        }
    }

    /** Built-in codecs put integers, lists and maps among attributes too; they flatten as JSON would. */
    private static void attribute(String name, Object value, Map<String, Object> flat) {
        switch (value) {
            case null -> {}
            case Boolean bool -> flat.put(name, bool);
            case String string -> flat.put(name, string);
            case Number number -> {
                if (Double.isFinite(number.doubleValue())) {
                    flat.put(name, number.doubleValue());
                }
            }
            case Map<?, ?> map -> children(name + ".", EventJson.mapper().valueToTree(map), flat);
            case List<?> list -> children(name + ".", EventJson.mapper().valueToTree(list), flat);
            default -> flat.put(name, String.valueOf(value));
        }
    }
}
