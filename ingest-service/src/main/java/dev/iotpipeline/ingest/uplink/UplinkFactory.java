package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.validation.Fields;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;

/** Validates an uplink request and turns it into the event written to Kafka. */
class UplinkFactory {

    private static final Pattern MEASUREMENT = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");
    static final String JSON_DEVICE_TYPE = "json";

    private final Predicate<String> knownDeviceType;
    private final int maxPayloadBytes;
    private final Clock clock;

    UplinkFactory(Predicate<String> knownDeviceType, int maxPayloadBytes, Clock clock) {
        this.knownDeviceType = knownDeviceType;
        this.maxPayloadBytes = maxPayloadBytes;
        this.clock = clock;
    }

    /** Where a request's uplinks go, checked: only {@link #target} makes one, so no item checks it again. */
    record Target(String channel, String deviceType) {}

    /** Checks the path names once per request, before any item of a batch; {@code deviceType} may be null. */
    Target target(String channel, String deviceType) {
        requireName("channel", channel);
        if (deviceType != null) {
            requireName("deviceType", deviceType);
            if (!knownDeviceType.test(deviceType)) {
                throw Problems.of(
                        HttpStatus.NOT_FOUND,
                        "unknown-device-type",
                        "Device type '" + deviceType + "' is not registered");
            }
        }
        return new Target(channel, deviceType);
    }

    /** The target of decoded measurements: the built-in {@code json} device type. */
    Target decodedTarget(String channel) {
        return target(channel, JSON_DEVICE_TYPE);
    }

    /**
     * An encoded uplink. The event id comes from the item's {@code id}, else from the Idempotency-Key
     * (with the batch index), else it is new, so a retried request yields the same ids; a key always counts
     * within its channel and device only.
     */
    ReceivedUplink create(Target target, UplinkRequest request, String idempotencyKey, Integer index) {
        var channel = target.channel();
        requireDeviceId(request.deviceId());
        if (request.fPort() != null && (request.fPort() < 0 || request.fPort() > 255)) {
            throw Fields.invalid("invalid-field", "fPort", "fPort must be between 0 and 255");
        }
        return uplink(
                target,
                request.deviceId(),
                request.fPort(),
                payload(request),
                request.measuredAt(),
                Map.of(),
                eventId(channel, request.deviceId(), request.id(), idempotencyKey, index));
    }

    /** Decoded measurements travel as a JSON payload of the built-in {@code json} device type. */
    ReceivedUplink createDecoded(Target target, DecodedRequest request, String idempotencyKey, Integer index) {
        var channel = target.channel();
        requireDeviceId(request.deviceId());
        if (request.measurements() == null || request.measurements().isEmpty()) {
            throw Fields.invalid("missing-field", "measurements", "measurements must hold at least one value");
        }
        request.measurements().forEach((name, value) -> {
            if (!MEASUREMENT.matcher(name).matches()) {
                throw Fields.invalid(
                        "invalid-field",
                        "measurements",
                        "measurement name '" + name + "' must match " + MEASUREMENT.pattern());
            }
            if (!(value instanceof Number number) || !Double.isFinite(number.doubleValue())) {
                throw Fields.invalid(
                        "invalid-field", "measurements", "measurement '" + name + "' must be a finite number");
            }
        });
        var body = new LinkedHashMap<String, Object>();
        body.put("measurements", request.measurements());
        if (request.attributes() != null && !request.attributes().isEmpty()) {
            body.put("attributes", request.attributes());
        }
        byte[] payload = EventJson.write(body);
        requireSize(payload.length);
        return uplink(
                target,
                request.deviceId(),
                null,
                payload,
                request.measuredAt(),
                Map.of(),
                eventId(channel, request.deviceId(), request.id(), idempotencyKey, index));
    }

    /**
     * An uplink forwarded by a network server; its own message id, scoped to the channel and device, makes the
     * server's retries idempotent, and the time the network received it orders the id.
     */
    ReceivedUplink createForwarded(Target target, WebhookUplink forwarded) {
        requireDeviceId(forwarded.deviceId());
        if (forwarded.payload() == null || forwarded.payload().length == 0) {
            throw Fields.invalid("missing-field", "payload", "the uplink carries no payload");
        }
        requireSize(forwarded.payload().length);
        return uplink(
                target,
                forwarded.deviceId(),
                forwarded.fPort(),
                forwarded.payload(),
                forwarded.receivedByNetwork(),
                forwarded.metadata(),
                forwarded.messageId() == null
                        ? null
                        : Ids.fromClientKey(
                                target.channel(),
                                forwarded.deviceId(),
                                forwarded.messageId(),
                                forwarded.receivedByNetwork()));
    }

    /** {@code id} is the one the sender's key gives, or null for one minted now. */
    private ReceivedUplink uplink(
            Target target,
            String deviceId,
            Integer fPort,
            byte[] payload,
            Instant measuredAt,
            Map<String, Object> metadata,
            UUID id) {
        if (target.deviceType() == null) {
            throw new IllegalArgumentException("an uplink needs a device type: " + target);
        }
        return new ReceivedUplink(
                new EncodedUplink(
                        id == null ? Ids.newId() : id,
                        EncodedUplink.SCHEMA_VERSION,
                        target.channel(),
                        target.deviceType(),
                        deviceId,
                        fPort,
                        payload,
                        Instant.now(clock),
                        measuredAt,
                        metadata),
                id == null);
    }

    /** The id the sender's item id or Idempotency-Key gives, or null when it gave neither (one is minted). */
    private static UUID eventId(String channel, String deviceId, String itemId, String idempotencyKey, Integer index) {
        if (itemId != null && !itemId.isBlank()) {
            return Ids.fromClientKey(channel, deviceId, itemId);
        }
        if (idempotencyKey != null && !idempotencyKey.isBlank()) {
            return Ids.fromClientKey(channel, deviceId, index == null ? idempotencyKey : idempotencyKey + '#' + index);
        }
        return null;
    }

    private static void requireDeviceId(String deviceId) {
        if (deviceId == null || deviceId.isBlank()) {
            throw Fields.invalid("missing-field", "deviceId", "deviceId is required");
        }
        if (!Fields.isDeviceId(deviceId)) {
            throw Fields.invalid("invalid-field", "deviceId", "deviceId must match " + Fields.DEVICE_ID.pattern());
        }
    }

    private void requireSize(int length) {
        if (length > maxPayloadBytes) {
            throw Problems.of(
                    HttpStatus.CONTENT_TOO_LARGE,
                    "payload-too-large",
                    "payload is " + length + " bytes; the limit is " + maxPayloadBytes);
        }
    }

    private byte[] payload(UplinkRequest request) {
        if ((request.payload() == null) == (request.payloadHex() == null)) {
            throw Fields.invalid("missing-field", "payload", "Give exactly one of payload (base64) or payloadHex");
        }
        byte[] bytes;
        if (request.payload() != null) {
            try {
                bytes = Base64.getDecoder().decode(request.payload().strip());
            } catch (IllegalArgumentException e) {
                throw Fields.invalid("invalid-base64", "payload", "payload is not valid base64: " + e.getMessage());
            }
        } else {
            try {
                bytes = HexFormat.of().parseHex(request.payloadHex().strip());
            } catch (IllegalArgumentException e) {
                throw Fields.invalid("invalid-hex", "payloadHex", "payloadHex is not valid hex: " + e.getMessage());
            }
        }
        if (bytes.length == 0) {
            throw Fields.invalid("invalid-field", "payload", "payload is empty");
        }
        requireSize(bytes.length);
        return bytes;
    }

    private static void requireName(String what, String value) {
        if (!Fields.isName(value)) {
            throw Fields.invalid("invalid-name", what, what + " '" + value + "' must match " + Fields.NAME.pattern());
        }
    }
}
