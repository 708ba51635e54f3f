package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.FieldMapping;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.validation.Fields;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** The checks {@link DeviceTypeController} makes of a request, and the problems it answers a refused one with. */
final class DeviceTypeRequests {

    private static final int MAX_MAPPINGS = 256;
    private static final int MAX_DESCRIPTION = 1000;

    /** Ingest's default payload limit; the body limit bounds a test payload anyway. */
    private static final int MAX_TEST_PAYLOAD = 65_536;

    private DeviceTypeRequests() {}

    static void checkName(String deviceType) {
        if (!Fields.isName(deviceType)) {
            throw Fields.invalid("deviceType", "'" + deviceType + "' does not match " + Fields.NAME.pattern());
        }
    }

    static void checkDescription(String description) {
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw Fields.invalid("description", "is longer than " + MAX_DESCRIPTION + " characters");
        }
    }

    static void checkMapping(Map<String, FieldMapping> mapping) {
        if (mapping != null && mapping.size() > MAX_MAPPINGS) {
            throw Fields.invalid("mapping", "holds " + mapping.size() + " entries; at most " + MAX_MAPPINGS);
        }
    }

    static byte[] payload(PayloadTestRequest request) {
        var given = new ArrayList<String>();
        if (request.bytes() != null) {
            given.add("bytes");
        }
        if (request.payload() != null) {
            given.add("payload");
        }
        if (request.payloadHex() != null) {
            given.add("payloadHex");
        }
        if (given.isEmpty()) {
            throw Fields.invalid("payload", "is required: give bytes, payload (base64) or payloadHex");
        }
        if (given.size() > 1) {
            throw Fields.invalid(given.get(1), "give only one of bytes, payload (base64) or payloadHex; got " + given);
        }
        byte[] bytes;
        if (request.bytes() != null) {
            if (request.bytes().size() > MAX_TEST_PAYLOAD) {
                throw Fields.invalid(
                        "bytes", "holds " + request.bytes().size() + " bytes; at most " + MAX_TEST_PAYLOAD);
            }
            bytes = new byte[request.bytes().size()];
            for (int i = 0; i < bytes.length; i++) {
                var value = request.bytes().get(i);
                if (value == null || value < 0 || value > 255) {
                    throw Fields.invalid("bytes", "item " + i + " (" + value + ") is not a byte value (0..255)");
                }
                bytes[i] = (byte) (int) value;
            }
        } else if (request.payload() != null) {
            try {
                bytes = Base64.getDecoder().decode(request.payload().strip());
            } catch (IllegalArgumentException e) {
                throw Fields.invalid("payload", "is not valid base64: " + e.getMessage());
            }
        } else {
            try {
                bytes = HexFormat.of().parseHex(request.payloadHex().strip());
            } catch (IllegalArgumentException e) {
                throw Fields.invalid("payloadHex", "is not valid hex: " + e.getMessage());
            }
        }
        if (bytes.length > MAX_TEST_PAYLOAD) {
            throw Fields.invalid(given.getFirst(), "holds " + bytes.length + " bytes; at most " + MAX_TEST_PAYLOAD);
        }
        return bytes;
    }

    static ErrorResponseException examplesFailed(CodecExamples.Check check) {
        var mismatches = check.mismatches().stream()
                .map(m -> {
                    // A map, not the record: a missing or unexpected value must show as null, whatever the JSON
                    // settings.
                    var entry = new LinkedHashMap<String, Object>();
                    entry.put("example", m.example());
                    entry.put("description", m.description());
                    entry.put("path", m.path());
                    entry.put("expected", m.expected());
                    entry.put("actual", m.actual());
                    return entry;
                })
                .toList();
        var detail = check.failed() + " of " + check.total() + " examples failed: the codec's output differs from "
                + "what they expect"
                + (check.truncated() ? " (the first " + check.mismatches().size() + " differences are listed)" : "");
        return Problems.of(
                HttpStatus.UNPROCESSABLE_CONTENT, "codec-examples-failed", detail, Map.of("mismatches", mismatches));
    }

    static ErrorResponseException notFound(String deviceType) {
        return Problems.of(
                HttpStatus.NOT_FOUND, "unknown-device-type", "Device type '" + deviceType + "' is not registered");
    }
}
