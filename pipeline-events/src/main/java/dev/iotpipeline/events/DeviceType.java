package dev.iotpipeline.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A registered device type, keyed by name in the compacted device-types topic: the codec that decodes its
 * payloads (a built-in codec name, or {@value #JAVASCRIPT} with the script), the field mapping from the
 * codec's output to canonical measurements, the conformance examples the codec passed when it was registered,
 * and the codec's form ({@code decodeUplink}, {@code decodeUplink+normalizeUplink}, {@code Decode},
 * {@code Decoder} or {@code built-in}; null in events written before it was recorded).
 */
public record DeviceType(
        String name,
        int schemaVersion,
        String codec,
        String script,
        Map<String, FieldMapping> mapping,
        String description,
        Instant updatedAt,
        List<CodecExample> examples,
        String form) {

    public static final int SCHEMA_VERSION = 1;
    public static final String JAVASCRIPT = "javascript";

    public DeviceType {
        mapping = mapping == null ? Map.of() : Map.copyOf(mapping);
        examples = examples == null ? List.of() : examples.stream().filter(Objects::nonNull).toList();
    }

    /** A device type without examples, whose form is not recorded. */
    public DeviceType(String name, int schemaVersion, String codec, String script, Map<String, FieldMapping> mapping,
            String description, Instant updatedAt) {
        this(name, schemaVersion, codec, script, mapping, description, updatedAt, List.of(), null);
    }
}
