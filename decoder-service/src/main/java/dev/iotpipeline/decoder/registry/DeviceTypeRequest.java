package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.CodecExample;
import dev.iotpipeline.events.FieldMapping;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code PUT /device-types/{deviceType}}: a built-in codec name or "javascript" with the script, and
 * optional conformance examples the codec must pass; {@code primaryOutput} ({@code decoded} or
 * {@code normalized}) says which output of a script with {@code normalizeUplink} keeps its own names, and when left
 * out the type keeps what it had (a new type: {@code decoded}).
 */
record DeviceTypeRequest(
        String codec,
        String script,
        Map<String, FieldMapping> mapping,
        String description,
        List<CodecExample> examples,
        String primaryOutput) {}
