package dev.iotpipeline.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A registered device type, keyed by name in the compacted device-types topic: the codec that decodes its
 * payloads (a built-in codec name, or {@value #JAVASCRIPT} with the script), the field mapping from the
 * codec's output to canonical measurements, the conformance examples the codec passed when it was registered,
 * the codec's form ({@code decodeUplink}, {@code decodeUplink+normalizeUplink}, {@code Decode},
 * {@code Decoder} or {@code built-in}; null in events written before it was recorded), and which output of a
 * codec with {@code normalizeUplink} a data unit carries under its own names ({@value #DECODED} or
 * {@value #NORMALIZED}; null in events written before both were kept, which stored the normalized output).
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
        String form,
        String primaryOutput) {

    public static final int SCHEMA_VERSION = 1;
    public static final String JAVASCRIPT = "javascript";

    /** {@link #primaryOutput()}: what {@code decodeUplink} returned, with the normalized output under {@code normalized.}. */
    public static final String DECODED = "decoded";

    /** {@link #primaryOutput()}: what {@code normalizeUplink} returned, with the decoded output under {@code decoded.}. */
    public static final String NORMALIZED = "normalized";

    public DeviceType {
        mapping = mapping == null ? Map.of() : Map.copyOf(mapping);
        examples = examples == null
                ? List.of()
                : examples.stream().filter(Objects::nonNull).toList();
    }

    /** A device type without examples, whose form and primary output are not recorded. */
    public DeviceType(
            String name,
            int schemaVersion,
            String codec,
            String script,
            Map<String, FieldMapping> mapping,
            String description,
            Instant updatedAt) {
        this(name, schemaVersion, codec, script, mapping, description, updatedAt, List.of(), null, null);
    }

    /** The same type with its form and primary output as the registry shows them. */
    public DeviceType shownAs(String form, String primaryOutput) {
        return new DeviceType(
                name, schemaVersion, codec, script, mapping, description, updatedAt, examples, form, primaryOutput);
    }
}
