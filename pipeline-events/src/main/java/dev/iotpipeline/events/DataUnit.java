package dev.iotpipeline.events;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** Decoded, named measurements of one uplink; its id is derived from the uplink id so replays collapse. */
public record DataUnit(
        UUID id,
        int schemaVersion,
        UUID uplinkId,
        String channel,
        String deviceType,
        String deviceId,
        Instant measuredAt,
        Instant receivedAt,
        Instant decodedAt,
        Map<String, Double> measurements,
        Map<String, Object> attributes) {

    public static final int SCHEMA_VERSION = 1;

    public DataUnit {
        measurements = measurements == null ? Map.of() : Map.copyOf(measurements);
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }
}
