package dev.iotpipeline.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A device in the registry, keyed by {@link #key} in the compacted devices topic (a tombstone deletes it): its type,
 * labels, whether it may send, and the credentials it may send with, each kept only as the SHA-256 of its secret.
 */
public record RegisteredDevice(
        String channel,
        String deviceId,
        int schemaVersion,
        String deviceType,
        Map<String, String> labels,
        boolean enabled,
        List<Secret> credentials,
        Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;

    public RegisteredDevice {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        credentials = credentials == null ? List.of() : List.copyOf(credentials);
    }

    /** The record key of a device: channel and device id, which hold no {@code /}. */
    public static String key(String channel, String deviceId) {
        return channel + '/' + deviceId;
    }

    public String key() {
        return key(channel, deviceId);
    }

    /**
     * One credential of a device: {@code sha256} is the hex SHA-256 of the secret, {@code id} its first twelve
     * digits (what logs and the API name it by); it stops working at {@code expiresAt} when that is set.
     */
    public record Secret(String id, String sha256, Instant createdAt, Instant expiresAt) {

        public boolean validAt(Instant now) {
            return expiresAt == null || now.isBefore(expiresAt);
        }
    }
}
