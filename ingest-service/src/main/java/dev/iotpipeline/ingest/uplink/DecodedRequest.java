package dev.iotpipeline.ingest.uplink;

import java.time.Instant;
import java.util.Map;

/** Body of {@code POST /sensor-data/{channel}/decoded}: measurements given directly by the device. */
record DecodedRequest(
        String deviceId,
        Map<String, Object> measurements,
        Map<String, Object> attributes,
        String id,
        Instant measuredAt) {}
