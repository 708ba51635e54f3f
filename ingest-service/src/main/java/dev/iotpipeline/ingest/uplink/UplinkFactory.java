package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.ingest.problem.Problems;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

/** Validates an uplink request and turns it into the event written to Kafka. */
class UplinkFactory {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Pattern DEVICE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private final Predicate<String> knownDeviceType;
    private final int maxPayloadBytes;
    private final Clock clock;

    UplinkFactory(Predicate<String> knownDeviceType, int maxPayloadBytes, Clock clock) {
        this.knownDeviceType = knownDeviceType;
        this.maxPayloadBytes = maxPayloadBytes;
        this.clock = clock;
    }

    EncodedUplink create(String channel, String deviceType, UplinkRequest request, String idempotencyKey) {
        requireName("channel", channel);
        requireName("deviceType", deviceType);
        if (!knownDeviceType.test(deviceType)) {
            throw Problems.of(HttpStatus.NOT_FOUND, "unknown-device-type",
                    "Device type '" + deviceType + "' is not registered");
        }
        if (request.deviceId() == null || request.deviceId().isBlank()) {
            throw invalid("missing-field", "deviceId is required");
        }
        if (!DEVICE_ID.matcher(request.deviceId()).matches()) {
            throw invalid("invalid-field", "deviceId must match " + DEVICE_ID.pattern());
        }
        if (request.fPort() != null && (request.fPort() < 0 || request.fPort() > 255)) {
            throw invalid("invalid-field", "fPort must be between 0 and 255");
        }
        byte[] payload = payload(request);
        var clientKey = request.id() != null ? request.id() : idempotencyKey;
        UUID id = clientKey == null || clientKey.isBlank()
                ? Ids.newId()
                : Ids.fromClientKey(channel, request.deviceId(), clientKey);
        return new EncodedUplink(id, EncodedUplink.SCHEMA_VERSION, channel, deviceType, request.deviceId(),
                request.fPort(), payload, Instant.now(clock), request.measuredAt(), Map.of());
    }

    private byte[] payload(UplinkRequest request) {
        if ((request.payload() == null) == (request.payloadHex() == null)) {
            throw invalid("missing-field", "Give exactly one of payload (base64) or payloadHex");
        }
        byte[] bytes;
        if (request.payload() != null) {
            try {
                bytes = Base64.getDecoder().decode(request.payload().strip());
            } catch (IllegalArgumentException e) {
                throw invalid("invalid-base64", "payload is not valid base64: " + e.getMessage());
            }
        } else {
            try {
                bytes = HexFormat.of().parseHex(request.payloadHex().strip());
            } catch (IllegalArgumentException e) {
                throw invalid("invalid-hex", "payloadHex is not valid hex: " + e.getMessage());
            }
        }
        if (bytes.length == 0) {
            throw invalid("invalid-field", "payload is empty");
        }
        if (bytes.length > maxPayloadBytes) {
            throw Problems.of(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large",
                    "payload is " + bytes.length + " bytes; the limit is " + maxPayloadBytes);
        }
        return bytes;
    }

    private static void requireName(String what, String value) {
        if (!NAME.matcher(value).matches()) {
            throw invalid("invalid-name", what + " '" + value + "' must match " + NAME.pattern());
        }
    }

    private static ErrorResponseException invalid(String type, String detail) {
        return Problems.of(HttpStatus.BAD_REQUEST, type, detail);
    }
}
