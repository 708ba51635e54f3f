package dev.iotpipeline.decoder.registry;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * What one payload decodes to with a device type: the measurements and attributes a data unit would carry (after
 * the field mapping), the codec's own output flattened, and, when it has {@code normalizeUplink}, that output and
 * which of the two keeps its own names in the data unit.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record PayloadTestResult(
        String deviceType,
        String form,
        String primaryOutput,
        Map<String, Double> measurements,
        Map<String, Object> attributes,
        Map<String, Object> output,
        Map<String, Object> normalized) {}
