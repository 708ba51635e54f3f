package dev.iotpipeline.kafka.deadletter;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * Header names and values on dead-letter records (uplinks.dead-letter, events.dead-letter), which carry
 * the original value unchanged.
 *
 * <p>Records dead-lettered by a consumer's error handler also carry spring-kafka's standard
 * {@code kafka_dlt-*} headers (original topic, partition, offset, timestamp, consumer group, exception
 * class, message and stack trace).
 */
public final class DeadLetterHeaders {

    public static final String CAUSE = "dlt-cause";
    public static final String REASON = "dlt-reason";
    public static final String STAGE = "dlt-stage";
    public static final String DEVICE_TYPE = "dlt-device-type";
    public static final String CODEC = "dlt-codec";
    /** {@code topic-partition@offset} of the original record. */
    public static final String SOURCE = "dlt-source";
    /** ISO-8601 instant. */
    public static final String FAILED_AT = "dlt-failed-at";
    /**
     * On a dead letter published without the failed record's value, because with it the dead letter was larger than
     * the topic takes: the value's size in bytes. The record itself stays at {@link #SOURCE} until its retention.
     */
    public static final String VALUE_DROPPED = "dlt-value-dropped";

    /** {@link #STAGE}: the decoder (uplinks.dead-letter). */
    public static final String STAGE_DECODE = "decode";
    /** {@link #STAGE}: notify's history store writer (events.dead-letter). */
    public static final String STAGE_STORE = "store";
    /** {@link #STAGE}: the rules stream (events.dead-letter). */
    public static final String STAGE_RULES = "rules";

    /** {@link #CAUSE}: the value does not parse as its event. */
    public static final String CAUSE_MALFORMED_EVENT = "malformed-event";
    /** {@link #CAUSE}: the database refused the row for good (a constraint, a value it cannot hold). */
    public static final String CAUSE_REJECTED_BY_STORE = "rejected-by-store";
    /**
     * {@link #CAUSE}: a data unit whose id is stored already for a different uplink of its device, because the
     * sender reused an idempotency key (or a network server its message id) with another payload.
     */
    public static final String CAUSE_IDEMPOTENCY_CONFLICT = "idempotency-conflict";
    /** {@link #CAUSE}: the consumer failed on the record for a reason retrying cannot fix. */
    public static final String CAUSE_PROCESSING_ERROR = "processing-error";
    /** {@link #CAUSE}: the decoder's output for the record can never be published (too large, unserializable). */
    public static final String CAUSE_UNPUBLISHABLE = "unpublishable";

    private DeadLetterHeaders() {}

    /**
     * Writes the headers every dead letter carries, whoever writes it: cause, reason, stage, the source
     * record's {@code topic-partition@offset} and when it failed. Null values are left out.
     */
    public static void addCommon(
            Headers headers, ConsumerRecord<?, ?> source, String cause, String reason, String stage, Instant failedAt) {
        add(headers, CAUSE, cause);
        add(headers, REASON, reason);
        add(headers, STAGE, stage);
        add(headers, SOURCE, source(source));
        add(headers, FAILED_AT, failedAt.toString());
    }

    /** Adds one header as UTF-8, unless the value is null. */
    public static void add(Headers headers, String name, String value) {
        if (value != null) {
            headers.add(name, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The last value of a header as text, or null. */
    public static String value(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** {@code topic-partition@offset}, the {@link #SOURCE} of a dead letter and how logs name a record. */
    public static String source(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }

    /** The topic part of a {@link #SOURCE} value. */
    public static String sourceTopic(String source) {
        return source.substring(0, source.lastIndexOf('-', source.indexOf('@')));
    }
}
