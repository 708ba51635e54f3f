package dev.iotpipeline.ingest.uplink;

import java.time.Instant;

/** Body of {@code POST /sensor-data/{channel}/encoded/{deviceType}}: exactly one of payload (base64) or payloadHex. */
record UplinkRequest(
        String deviceId, String payload, String payloadHex, Integer fPort, String id, Instant measuredAt) {}
