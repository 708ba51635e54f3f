package dev.iotpipeline.decoder.codec;

import dev.iotpipeline.events.EventJson;
import java.util.LinkedHashMap;
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
                measurements.put(field.getKey(), field.getValue().asDouble());
            }
            root.path("attributes").properties().forEach(field -> attributes.put(field.getKey(), plain(field.getValue())));
        } else {
            for (var field : root.properties()) {
                if (field.getValue().isNumber()) {
                    measurements.put(field.getKey(), field.getValue().asDouble());
                } else {
                    attributes.put(field.getKey(), plain(field.getValue()));
                }
            }
        }
        if (measurements.isEmpty() && attributes.isEmpty()) {
            throw new CodecException("json: payload holds no values");
        }
        return new Decoded(measurements, attributes);
    }

    private static Object plain(JsonNode node) {
        return EventJson.mapper().convertValue(node, Object.class);
    }
}
