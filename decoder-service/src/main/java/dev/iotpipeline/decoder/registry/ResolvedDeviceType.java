package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.UplinkCodec;
import dev.iotpipeline.events.DeviceType;

/**
 * A device type with its codec ready to run, or, when the registered codec cannot be built (a script the
 * sandbox refuses), the reason, so its uplinks are dead-lettered with it instead of being dropped.
 */
public record ResolvedDeviceType(DeviceType type, UplinkCodec codec, String brokenReason) {}
