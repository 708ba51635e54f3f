package dev.iotpipeline.decoder.decoding;

/** Why a record went to the dead-letter topic; the header value and the metric tag. */
enum DeadLetterCause {
    MALFORMED_EVENT("malformed-event"),
    UNKNOWN_DEVICE_TYPE("unknown-device-type"),
    BROKEN_CODEC("broken-codec"),
    CODEC_ERROR("codec-error"),
    CODEC_TIMEOUT("codec-timeout");

    private final String tag;

    DeadLetterCause(String tag) {
        this.tag = tag;
    }

    String tag() {
        return tag;
    }
}
