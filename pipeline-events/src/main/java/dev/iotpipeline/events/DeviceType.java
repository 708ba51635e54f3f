package dev.iotpipeline.events;

import java.time.Instant;
import java.util.Map;

/**
 * A registered device type, keyed by name in the compacted device-types topic: the codec that decodes its
 * payloads (a built-in codec name, or {@value #JAVASCRIPT} with the script) and the field mapping from the
 * codec's output to canonical measurements.
 */
public record DeviceType(
        String name,
        int schemaVersion,
        String codec,
        String script,
        Map<String, FieldMapping> mapping,
        String description,
        Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;
    public static final String JAVASCRIPT = "javascript";

    public DeviceType {
        mapping = mapping == null ? Map.of() : Map.copyOf(mapping);
    }
}
