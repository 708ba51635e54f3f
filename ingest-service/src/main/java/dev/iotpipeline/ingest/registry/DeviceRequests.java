package dev.iotpipeline.ingest.registry;

import dev.iotpipeline.events.ChannelPolicy;
import dev.iotpipeline.web.validation.Fields;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;

/** The registry's request bodies and the checks they pass, each refusal naming its field. */
final class DeviceRequests {

    static final int MAX_LABELS = 32;
    static final int MAX_LABEL_VALUE = 256;
    static final int MIN_SECRET = 16;
    static final int MAX_SECRET = 256;
    static final String SHA256_PREFIX = "sha256:";
    private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private DeviceRequests() {}

    /**
     * A device to create or replace: its type, labels and whether it may send (default true), and optionally the
     * secret of its first credential (only when it has none yet).
     */
    record DeviceRequest(String deviceType, Map<String, String> labels, Boolean enabled, String secret) {}

    /**
     * A new credential for a device: the operator's secret, or one generated and shown once when absent; the device's
     * other valid credentials keep working for {@code overlapSeconds} (the configured default when absent, 0 ends
     * them now).
     */
    record CredentialRequest(String secret, Long overlapSeconds) {}

    /** What a channel does with devices it has no registration for: {@code open} or {@code registered}. */
    record PolicyRequest(String unknownDevices) {}

    static void requireChannel(String channel) {
        if (!Fields.isName(channel)) {
            throw Fields.invalid("channel", "must match " + Fields.NAME.pattern());
        }
    }

    static void requireDeviceId(String deviceId) {
        if (!Fields.isDeviceId(deviceId)) {
            throw Fields.invalid("deviceId", "must match " + Fields.DEVICE_ID.pattern());
        }
    }

    static void requireDevice(DeviceRequest request) {
        if (request.deviceType() != null && !Fields.isName(request.deviceType())) {
            throw Fields.invalid("deviceType", "must match " + Fields.NAME.pattern());
        }
        if (request.labels() != null) {
            if (request.labels().size() > MAX_LABELS) {
                throw Fields.invalid("labels", "has " + request.labels().size() + " entries; at most " + MAX_LABELS);
            }
            request.labels().forEach((key, value) -> {
                if (key == null || !LABEL_KEY.matcher(key).matches()) {
                    throw Fields.invalid("labels", "key '" + key + "' must match " + LABEL_KEY.pattern());
                }
                if (value == null) {
                    throw Fields.invalid("labels." + key, "must be a text");
                }
                Fields.requireMaxLength("labels." + key, value, MAX_LABEL_VALUE);
            });
        }
        if (request.secret() != null) {
            requireSecret("secret", request.secret());
        }
    }

    /**
     * A secret the operator supplies: {@value #MIN_SECRET} to {@value #MAX_SECRET} visible characters, or
     * {@code sha256:} and the 64 hex digits of one (a device whose secret the registry never sees).
     */
    static void requireSecret(String field, String secret) {
        if (secret.startsWith(SHA256_PREFIX)) {
            var hex = secret.substring(SHA256_PREFIX.length());
            if (hex.length() != 64 || !hex.chars().allMatch(HexFormat::isHexDigit)) {
                throw Fields.invalid(field, "a sha256: secret needs 64 hex digits");
            }
            return;
        }
        if (secret.length() < MIN_SECRET || secret.length() > MAX_SECRET) {
            throw Fields.invalid(
                    field, "must be " + MIN_SECRET + " to " + MAX_SECRET + " characters, not " + secret.length());
        }
        if (!secret.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw Fields.invalid(field, "may hold only visible ASCII characters");
        }
    }

    static void requireOverlap(Long overlapSeconds) {
        if (overlapSeconds != null && (overlapSeconds < 0 || overlapSeconds > 366L * 24 * 3600)) {
            throw Fields.invalid("overlapSeconds", "must be between 0 and a year");
        }
    }

    static String requirePolicy(PolicyRequest request) {
        var value = request == null ? null : request.unknownDevices();
        if (!ChannelPolicy.OPEN.equals(value) && !ChannelPolicy.REGISTERED.equals(value)) {
            throw Fields.invalid(
                    "unknownDevices", "must be '" + ChannelPolicy.OPEN + "' or '" + ChannelPolicy.REGISTERED + "'");
        }
        return value;
    }
}
