package dev.iotpipeline.ingest.uplink;

import java.time.Instant;
import java.util.Map;

/**
 * What a network server's uplink event says about one uplink, whatever its format: the device, the frame,
 * when the network received it, the server's own id for it, the device model (for type mapping) and radio
 * metadata.
 */
record WebhookUplink(
        String deviceId,
        Integer fPort,
        byte[] payload,
        Instant receivedByNetwork,
        String messageId,
        String model,
        Map<String, Object> metadata) {}
