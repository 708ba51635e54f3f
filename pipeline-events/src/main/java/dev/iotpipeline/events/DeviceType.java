package dev.iotpipeline.events;

import java.time.Instant;

/** A registered device type and the codec that decodes its payloads; keyed by name in the device-types topic. */
public record DeviceType(String name, int schemaVersion, String codec, String description, Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;
}
