package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.FieldMapping;
import java.util.Map;

/** Body of {@code PUT /device-types/{deviceType}}: a built-in codec name or "javascript" with the script. */
record DeviceTypeRequest(String codec, String script, Map<String, FieldMapping> mapping, String description) {
}
