package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.FieldMapping;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code POST /device-types/{deviceType}/test}: one payload, as exactly one of {@code bytes},
 * {@code payload} (base64) or {@code payloadHex}; with {@code codec} (and {@code script}, {@code mapping}) it
 * tries that codec as a {@code PUT} would register it instead of the stored one; {@code primaryOutput} tries the
 * other naming of a script with {@code normalizeUplink}.
 */
record PayloadTestRequest(
        Integer fPort,
        List<Integer> bytes,
        String payload,
        String payloadHex,
        String codec,
        String script,
        Map<String, FieldMapping> mapping,
        String primaryOutput) {}
