package dev.iotpipeline.kafka.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.sampler.Sampler;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TraceStartTest {

    private final List<Tracing> tracings = new ArrayList<>();
    private final List<Span> spansDuringSend = new ArrayList<>();

    @AfterEach
    void close() {
        tracings.forEach(Tracing::close);
    }

    @Test
    void anUnsampledNewTraceIsTheUplinksOwnAndLeavesTheRecordWithoutTraceparent() {
        var tracer = tracer(Sampler.NEVER_SAMPLE);
        var record = record();

        new TraceStart(tracer, propagator(), "uplink").send(record, this::send);

        assertThat(record.headers().toArray()).isEmpty();
        assertThat(spansDuringSend).containsOnlyNulls();
    }

    @Test
    void eachSampledRecordStartsATraceOfItsOwn() {
        var traces = new TraceStart(tracer(Sampler.ALWAYS_SAMPLE), propagator(), "uplink");
        var first = record();
        var second = record();

        traces.send(first, this::send);
        traces.send(second, this::send);

        assertThat(RecordTracing.traceId(first.headers())).isNotEqualTo(RecordTracing.traceId(second.headers()));
    }

    @Test
    void aSampledNewTraceIsSentInsideASpanAndWrittenOntoTheRecordForTheObservedSend() {
        var tracer = tracer(Sampler.ALWAYS_SAMPLE);
        var record = record();

        new TraceStart(tracer, propagator(), "uplink").send(record, this::send);

        assertThat(spansDuringSend).singleElement().satisfies(span -> {
            assertThat(span).isNotNull();
            assertThat(span.context().sampled()).isTrue();
            assertThat(RecordTracing.traceId(record.headers()))
                    .isEqualTo(span.context().traceId());
        });
        assertThat(RecordTracing.sampled(record.headers()))
                .as("so SampledHopsOnly observes the send, whose span replaces it")
                .isTrue();
        assertThat(tracer.currentSpan()).as("scope closed after the send").isNull();
    }

    @Test
    void anUnsampledCurrentTraceIsContinuedOnTheRecord() {
        var tracer = tracer(Sampler.NEVER_SAMPLE);
        var current = tracer.nextSpan().start();
        var record = record();

        try (var scope = tracer.withSpan(current)) {
            new TraceStart(tracer, propagator(), "uplink").send(record, this::send);
        }

        assertThat(RecordTracing.traceId(record.headers()))
                .isEqualTo(current.context().traceId());
        assertThat(RecordTracing.unsampled(record.headers())).isTrue();
    }

    @Test
    void aSampledCurrentTraceIsWrittenOntoTheRecordForTheObservedSend() {
        var tracer = tracer(Sampler.ALWAYS_SAMPLE);
        var current = tracer.nextSpan().start();
        var record = record();

        try (var scope = tracer.withSpan(current)) {
            new TraceStart(tracer, propagator(), "uplink").send(record, this::send);
        }

        assertThat(RecordTracing.traceId(record.headers()))
                .isEqualTo(current.context().traceId());
        assertThat(RecordTracing.sampled(record.headers())).isTrue();
        assertThat(spansDuringSend).singleElement().isEqualTo(current);
    }

    @Test
    void withoutTracingTheSendIsPlain() {
        var record = record();

        var result = new TraceStart(null, null, "uplink").send(record, sent -> "sent");

        assertThat(result).isEqualTo("sent");
        assertThat(record.headers().toArray()).isEmpty();
    }

    private String send(ProducerRecord<String, String> record) {
        spansDuringSend.add(currentTracer == null ? null : currentTracer.currentSpan());
        return "sent";
    }

    private Tracer currentTracer;
    private Tracing brave;

    private Tracer tracer(Sampler sampler) {
        brave = Tracing.newBuilder()
                .propagationFactory(new W3CPropagation())
                .currentTraceContext(ThreadLocalCurrentTraceContext.create())
                .traceId128Bit(true)
                .sampler(sampler)
                .build();
        tracings.add(brave);
        currentTracer = new BraveTracer(brave.tracer(), new BraveCurrentTraceContext(brave.currentTraceContext()));
        return currentTracer;
    }

    private BravePropagator propagator() {
        return new BravePropagator(brave);
    }

    private static ProducerRecord<String, String> record() {
        return new ProducerRecord<>("uplinks.encoded", "device-1", "{}");
    }
}
