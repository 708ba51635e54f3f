package dev.iotpipeline.kafka.tracing;

import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.springframework.kafka.support.micrometer.KafkaListenerObservation;
import org.springframework.kafka.support.micrometer.KafkaRecordReceiverContext;

/**
 * Continues a record's trace where spring-kafka does not: a batch listener is observed per batch at most, so
 * work done for one record runs here in that record's own listener observation, whose span continues the
 * record's {@code traceparent}. Sends made inside go through an observed KafkaTemplate, which makes them
 * child spans and writes their {@code traceparent}. With no observation handlers (tracing off), or for a
 * record whose trace is not sampled, this is a plain call: the caller copies the trace headers onto what it
 * sends ({@link #copyTraceHeaders}), which keeps the trace id on every hop for a tenth of the CPU (an observed
 * record and send cost more than decoding it). A record without {@code traceparent} is in its uplink's own
 * unsampled trace ({@link TraceStart}), whose id is the uplink id's ({@link #traceIdOf}).
 */
public final class RecordTracing {

    /** The W3C Trace Context headers, copied as they are where no span can be continued (Kafka Streams). */
    public static final String TRACEPARENT = "traceparent";

    public static final String TRACESTATE = "tracestate";

    private final ObservationRegistry registry;
    private final String listenerId;
    private final String groupId;

    public RecordTracing(ObservationRegistry registry, String listenerId, String groupId) {
        this.registry = registry;
        this.listenerId = listenerId;
        this.groupId = groupId;
    }

    public <T> T observe(ConsumerRecord<?, ?> record, Supplier<T> work) {
        if (registry.isNoop() || !sampled(record.headers())) {
            return work.get();
        }
        return KafkaListenerObservation.LISTENER_OBSERVATION
                .observation(
                        null,
                        KafkaListenerObservation.DefaultKafkaListenerObservationConvention.INSTANCE,
                        () -> new KafkaRecordReceiverContext(record, listenerId, listenerId, groupId, () -> null),
                        registry)
                .observe(work);
    }

    /** Puts the trace headers of {@code from} on {@code to}, replacing any there, so an output joins its input's trace. */
    public static Headers copyTraceHeaders(Headers from, Headers to) {
        for (var name : new String[] {TRACEPARENT, TRACESTATE}) {
            var header = from.lastHeader(name);
            if (header != null) {
                to.remove(name);
                to.add(name, header.value());
            }
        }
        return to;
    }

    /**
     * Whether the headers carry a well-formed {@code traceparent} whose sampled flag is off: such a trace records no
     * span anywhere, so a hop need not observe it, only pass the header on.
     */
    public static boolean unsampled(Headers headers) {
        return flags(headers) == 0;
    }

    /**
     * Whether the headers carry a well-formed {@code traceparent} whose sampled flag is on: only such a record's
     * hop is observed. Without one the record is in an unsampled trace: its uplink's own, or a caller's.
     */
    public static boolean sampled(Headers headers) {
        return flags(headers) == 1;
    }

    /** The sampled flag of a well-formed {@code traceparent} (0 or 1), or -1 without one. */
    private static int flags(Headers headers) {
        var header = headers.lastHeader(TRACEPARENT);
        var value = header == null ? null : header.value();
        // version 00: 2 + 1 + 32 + 1 + 16 + 1 + 2 characters, the flags last
        if (value == null || value.length != 55 || value[2] != '-' || value[35] != '-' || value[52] != '-') {
            return -1;
        }
        int flags = Character.digit(value[54], 16);
        return Character.digit(value[53], 16) >= 0 && flags >= 0 ? flags & 1 : -1;
    }

    /**
     * The trace id of the uplink's own trace, the one the stack starts and does not sample: the uplink id's 32 hex
     * digits, lowercase (as W3C Trace Context writes ids); null for a null id.
     */
    public static String traceIdOf(UUID uplinkId) {
        if (uplinkId == null) {
            return null;
        }
        var hex = HexFormat.of();
        return hex.toHexDigits(uplinkId.getMostSignificantBits()) + hex.toHexDigits(uplinkId.getLeastSignificantBits());
    }

    /**
     * The trace id of a record: its {@code traceparent}'s, or without one its uplink's own ({@link #traceIdOf}).
     */
    public static String traceId(Headers headers, UUID uplinkId) {
        var header = headers.lastHeader(TRACEPARENT);
        return header == null ? traceIdOf(uplinkId) : traceId(header.value());
    }

    /**
     * A {@code traceparent} that puts a record into its uplink's own unsampled trace, for a record that must name it
     * (an alarm, which has no uplink id of its own); its parent id is the uplink id's last 16 hex digits, which no
     * span has, as no span of an unsampled trace is recorded.
     */
    public static byte[] uplinkTraceparent(UUID uplinkId) {
        long parent = uplinkId.getLeastSignificantBits();
        var hex = HexFormat.of();
        return ("00-" + traceIdOf(uplinkId) + "-" + hex.toHexDigits(parent == 0 ? 1 : parent) + "-00")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The trace id (32 lowercase hex digits) of a {@code traceparent} header, or null without a well-formed
     * one; checked digit by digit because callers put it into JSON and logs as it is.
     */
    public static String traceId(Headers headers) {
        var header = headers.lastHeader(TRACEPARENT);
        return header == null ? null : traceId(header.value());
    }

    private static String traceId(byte[] value) {
        if (value == null) {
            return null;
        }
        // Read in place (once per live record): the second of at least four dash-separated fields.
        int first = indexOf(value, 0);
        int second = first < 0 ? -1 : indexOf(value, first + 1);
        if (second - first - 1 != 32 || indexOf(value, second + 1) < 0) {
            return null;
        }
        for (int i = first + 1; i < second; i++) {
            byte c = value[i];
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return null;
            }
        }
        return new String(value, first + 1, 32, StandardCharsets.US_ASCII);
    }

    private static int indexOf(byte[] value, int from) {
        for (int i = from; i < value.length; i++) {
            if (value[i] == '-') {
                return i;
            }
        }
        return -1;
    }
}
