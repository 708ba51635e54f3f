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
 * send. A trace the stack starts and does not sample is the uplink's own: its records carry no {@code
 * traceparent}, and its trace id is the uplink id's 32 hex digits ({@link RecordTracing#traceIdOf}), which any hop
 * can compute, and which keeps 68 bytes off each of its records. Any other trace (a caller's, or one sampled here)
 * is written onto the record, so that {@link SampledHopsOnly} observes the send of a sampled one and skips that of
 * an unsampled one.
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
            // A sampled one is replaced by the observed send's own span, a child of this one.
            propagator.inject(current.context(), record.headers(), HEADERS);
            return send.apply(record);
        }
        var root = tracer.nextSpan();
        if (!sampled(root)) {
            return send.apply(record);
        }
        root.name(spanName).start();
        propagator.inject(root.context(), record.headers(), HEADERS);
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
