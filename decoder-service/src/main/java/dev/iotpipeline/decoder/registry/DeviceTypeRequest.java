package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.CodecExample;
import dev.iotpipeline.events.FieldMapping;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code PUT /device-types/{deviceType}}: a built-in codec name or "javascript" with the script, and
 * optional conformance examples the codec must pass.
 */
record DeviceTypeRequest(String codec, String script, Map<String, FieldMapping> mapping, String description,
        List<CodecExample> examples) {
}
