package dev.iotpipeline.decoder.codec;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a codec read: numeric measurements by name, everything else as attributes, and any earlier readings
 * the device sent along (history records), each with the time it was measured.
 */
public record Decoded(Map<String, Double> measurements, Map<String, Object> attributes, List<HistoryPoint> history) {

    /** The attribute under which a codec's warnings ride along. */
    public static final String WARNINGS = "codecWarnings";

    /** A reading the device stored and sent later. */
    public record HistoryPoint(Instant measuredAt, Map<String, Double> measurements) {}

    public Decoded {
        history = history == null ? List.of() : List.copyOf(history);
    }

    public Decoded(Map<String, Double> measurements, Map<String, Object> attributes) {
        this(measurements, attributes, List.of());
    }
}
