package dev.iotpipeline.events;

import java.time.Instant;

/**
 * What a channel does with a device it has no registration for, keyed by channel in the compacted channel-policies
 * topic: {@value #OPEN} accepts it under a channel key (it appears on its first uplink), {@value #REGISTERED} refuses
 * it. A channel without a policy is open.
 */
public record ChannelPolicy(String channel, int schemaVersion, String unknownDevices, Instant updatedAt) {

    public static final int SCHEMA_VERSION = 1;
    public static final String OPEN = "open";
    public static final String REGISTERED = "registered";

    public boolean registeredOnly() {
        return REGISTERED.equals(unknownDevices);
    }
}
