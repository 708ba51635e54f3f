package dev.iotpipeline.decoder.codec;

import dev.iotpipeline.events.DeviceType;

/**
 * Which output of a script with {@code normalizeUplink} a data unit carries under its own names; the other one
 * rides along under {@link #otherPrefix()}, so nothing either function returned is dropped.
 */
public enum PrimaryOutput {
    DECODED(DeviceType.DECODED, DeviceType.NORMALIZED + "."),
    NORMALIZED(DeviceType.NORMALIZED, DeviceType.DECODED + ".");

    private final String json;
    private final String otherPrefix;

    PrimaryOutput(String json, String otherPrefix) {
        this.json = json;
        this.otherPrefix = otherPrefix;
    }

    /** As the device type records it: {@code decoded} or {@code normalized}. */
    public String json() {
        return json;
    }

    /** The prefix of the names of the other output: {@code normalized.} or {@code decoded.}. */
    public String otherPrefix() {
        return otherPrefix;
    }

    /** Throws {@link IllegalArgumentException} naming the accepted values for anything else. */
    public static PrimaryOutput of(String json) {
        for (var value : values()) {
            if (value.json.equals(json)) {
                return value;
            }
        }
        throw new IllegalArgumentException("'" + json + "' is neither " + DECODED.json + " nor " + NORMALIZED.json);
    }

    /**
     * The primary output a device type records, or for one recorded before both outputs were kept (null, or a
     * value this version does not know) the one it stored then: the normalized output when there was one.
     */
    public static PrimaryOutput recorded(String json, boolean normalizes) {
        for (var value : values()) {
            if (value.json.equals(json)) {
                return value;
            }
        }
        return normalizes ? NORMALIZED : DECODED;
    }

    @Override
    public String toString() {
        return json;
    }
}
