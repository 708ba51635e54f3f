package dev.iotpipeline.kafka.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * Sends a record that starts its hop of a trace (no consumed record to continue), deciding sampling before the
 * send: an unsampled trace's {@code traceparent} is written onto the record directly, so that
 * {@link SampledHopsOnly} skips the send's observation; a sampled one is sent inside a span, observed as before.
 */
public final class TraceStart {

    private static final Propagator.Setter<Headers> HEADERS = (headers, name, value) -> {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    };

    private final Tracer tracer;
    private final Propagator propagator;
    private final String spanName;

    /** Without a tracer or propagator (tracing off), sends are plain. */
    public TraceStart(Tracer tracer, Propagator propagator, String spanName) {
        this.tracer = tracer;
        this.propagator = propagator;
        this.spanName = spanName;
    }

    /**
     * Sends {@code record} with {@code send} (e.g. {@code KafkaOperations::send}) in the current trace, or in a new
     * one (one per record) when there is none.
     */
    public <K, V, R> R send(ProducerRecord<K, V> record, Function<ProducerRecord<K, V>, R> send) {
        if (tracer == null || propagator == null) {
            return send.apply(record);
        }
        var current = tracer.currentSpan();
        if (current != null) {
            if (!sampled(current)) {
                propagator.inject(current.context(), record.headers(), HEADERS);
            }
            return send.apply(record);
        }
        var root = tracer.nextSpan();
        if (!sampled(root)) {
            propagator.inject(root.context(), record.headers(), HEADERS);
            return send.apply(record);
        }
        root.name(spanName).start();
        try (var scope = tracer.withSpan(root)) {
            return send.apply(record);
        } finally {
            root.end();
        }
    }

    private static boolean sampled(Span span) {
        return Boolean.TRUE.equals(span.context().sampled());
    }
}
