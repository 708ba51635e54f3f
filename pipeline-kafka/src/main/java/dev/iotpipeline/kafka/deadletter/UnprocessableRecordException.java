package dev.iotpipeline.kafka.deadletter;

/**
 * A record that can never be processed, whatever the retries; its dead letter carries {@link #deadLetterCause()} as
 * {@code dlt-cause} (for instance {@code malformed-event} or {@code rejected-by-store}).
 */
public class UnprocessableRecordException extends RuntimeException {

    private final String deadLetterCause;

    public UnprocessableRecordException(String deadLetterCause, String message, Throwable cause) {
        super(message, cause);
        this.deadLetterCause = deadLetterCause;
    }

    /** The stable tag written as {@code dlt-cause}. */
    public String deadLetterCause() {
        return deadLetterCause;
    }
}
