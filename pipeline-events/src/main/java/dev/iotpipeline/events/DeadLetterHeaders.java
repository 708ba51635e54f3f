package dev.iotpipeline.events;

/** Header names on uplinks.dead-letter records, which carry the original value unchanged. */
public final class DeadLetterHeaders {

    public static final String CAUSE = "dlt-cause";
    public static final String REASON = "dlt-reason";
    public static final String STAGE = "dlt-stage";
    public static final String DEVICE_TYPE = "dlt-device-type";
    public static final String CODEC = "dlt-codec";
    public static final String SOURCE = "dlt-source";
    public static final String FAILED_AT = "dlt-failed-at";

    private DeadLetterHeaders() {
    }
}
