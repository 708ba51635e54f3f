package dev.iotpipeline.events;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** An uplink as a device sent it, made durable by ingest-service before anything is decoded. */
public record EncodedUplink(
        UUID id,
        int schemaVersion,
        String channel,
        String deviceType,
        String deviceId,
        Integer fPort,
        byte[] payload,
        Instant receivedAt,
        Instant measuredAt,
        Map<String, Object> metadata) {

    public static final int SCHEMA_VERSION = 1;

    public EncodedUplink {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }
}
