package dev.iotpipeline.decoder.codec;

import dev.iotpipeline.events.EventJson;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Pass-through for devices that send JSON, and for ingest's decoded form: either
 * {@code {"measurements":{...},"attributes":{...}}} or a flat object whose numbers are measurements and
 * whose other values are attributes.
 */
final class JsonCodec implements UplinkCodec {

    static final String NAME = "json";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decoded decode(byte[] payload, Integer fPort) {
        JsonNode root;
        try {
            root = EventJson.mapper().readTree(payload);
        } catch (JacksonException e) {
            throw new CodecException("json: payload is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new CodecException("json: payload must be a JSON object");
        }
        var measurements = new LinkedHashMap<String, Double>();
        var attributes = new LinkedHashMap<String, Object>();
        if (root.path("measurements").isObject()) {
            for (var field : root.path("measurements").properties()) {
                if (!field.getValue().isNumber()) {
                    throw new CodecException("json: measurement '" + field.getKey() + "' is not a number");
                }
                measurements.put(field.getKey(), finite(field.getKey(), field.getValue()));
            }
            root.path("attributes")
                    .properties()
                    .forEach(field -> attribute(attributes, field.getKey(), field.getValue()));
        } else {
            for (var field : root.properties()) {
                if (field.getValue().isNumber()) {
                    measurements.put(field.getKey(), finite(field.getKey(), field.getValue()));
                } else {
                    attribute(attributes, field.getKey(), field.getValue());
                }
            }
        }
        if (measurements.isEmpty() && attributes.isEmpty()) {
            throw new CodecException("json: payload holds no values");
        }
        return new Decoded(measurements, attributes);
    }

    /** A number too large for a double (1e999) reads as Infinity: not a measurement, as ingest's decoded form has it. */
    private static double finite(String name, JsonNode number) {
        double value = number.asDouble();
        if (!Double.isFinite(value)) {
            throw new CodecException("json: measurement '" + name + "' is not a finite number (" + number + ")");
        }
        return value;
    }

    /** A null attribute is no attribute: data units hold no null values (their maps are Map.copyOf copies). */
    private static void attribute(Map<String, Object> attributes, String name, JsonNode node) {
        if (!node.isNull()) {
            attributes.put(name, EventJson.mapper().convertValue(node, Object.class));
        }
    }
}
