package dev.iotpipeline.kafka.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import brave.Tracing;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.sampler.Sampler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RecordTracingTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + PARENT_SPAN + "-01";

    private final Tracing brave = Tracing.newBuilder()
            .propagationFactory(new W3CPropagation())
            .currentTraceContext(ThreadLocalCurrentTraceContext.create())
            .traceId128Bit(true)
            .sampler(Sampler.ALWAYS_SAMPLE)
            .build();
    private final Tracer tracer =
            new BraveTracer(brave.tracer(), new BraveCurrentTraceContext(brave.currentTraceContext()));
    private final Propagator propagator = new BravePropagator(brave);
    private final ObservationRegistry registry = ObservationRegistry.create();

    {
        registry.observationConfig()
                .observationHandler(new PropagatingReceiverTracingObservationHandler<>(tracer, propagator));
    }

    @AfterEach
    void close() {
        brave.close();
    }

    @Test
    void workRunsInAChildSpanOfTheRecordsTraceparent() {
        var span = tracing(registry).observe(record(TRACEPARENT), tracer::currentSpan);

        assertThat(span).isNotNull();
        assertThat(span.context().traceId()).isEqualTo(TRACE_ID);
        assertThat(span.context().parentId()).isEqualTo(PARENT_SPAN);
        assertThat(span.context().spanId()).isNotEqualTo(PARENT_SPAN);
        assertThat(traceIdInjectedFrom(span)).isEqualTo(TRACE_ID);
        assertThat(tracer.currentSpan()).as("scope closed after the work").isNull();
    }

    @Test
    void aRecordWithoutTraceparentIsInItsUplinksUnsampledTraceAndRunsWithoutAnObservation() {
        var span = tracing(registry).observe(record(null), tracer::currentSpan);

        assertThat(span).isNull();
    }

    @Test
    void aMalformedTraceparentRunsWithoutAnObservationInsteadOfFailing() {
        var span = tracing(registry).observe(record("not-a-traceparent"), tracer::currentSpan);

        assertThat(span).isNull();
    }

    @Test
    void withoutObservationTheWorkRunsAsAPlainCall() {
        var result = tracing(ObservationRegistry.NOOP).observe(record(TRACEPARENT), () -> {
            assertThat(tracer.currentSpan()).isNull();
            return "done";
        });

        assertThat(result).isEqualTo("done");
    }

    @Test
    void anUnsampledRecordsWorkRunsWithoutAnObservation() {
        var span = tracing(registry).observe(record("00-" + TRACE_ID + "-" + PARENT_SPAN + "-00"), tracer::currentSpan);

        assertThat(span)
                .as("no span: the caller copies the record's traceparent instead")
                .isNull();
    }

    @Test
    void unsampledOnlyForAWellFormedTraceparentWithTheSampledFlagOff() {
        assertThat(RecordTracing.unsampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-00")))
                .isTrue();
        assertThat(RecordTracing.unsampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-02")))
                .isTrue();
        assertThat(RecordTracing.unsampled(headers(TRACEPARENT))).isFalse();
        assertThat(RecordTracing.unsampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-03")))
                .isFalse();
        assertThat(RecordTracing.unsampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-0x")))
                .isFalse();
        assertThat(RecordTracing.unsampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-000")))
                .isFalse();
        assertThat(RecordTracing.unsampled(headers("garbage"))).isFalse();
        assertThat(RecordTracing.unsampled(new RecordHeaders())).isFalse();
    }

    @Test
    void sampledOnlyForAWellFormedTraceparentWithTheSampledFlagOn() {
        assertThat(RecordTracing.sampled(headers(TRACEPARENT))).isTrue();
        assertThat(RecordTracing.sampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-03")))
                .isTrue();
        assertThat(RecordTracing.sampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-00")))
                .isFalse();
        assertThat(RecordTracing.sampled(headers("00-" + TRACE_ID + "-" + PARENT_SPAN + "-0x")))
                .isFalse();
        assertThat(RecordTracing.sampled(headers("garbage"))).isFalse();
        assertThat(RecordTracing.sampled(new RecordHeaders())).isFalse();
    }

    @Test
    void theUplinksOwnTraceIdIsItsIdInHexDigits() {
        var uplink = UUID.fromString("0193b8a2-7c4e-7d21-9f3a-2b4c6d8e0a1b");

        assertThat(RecordTracing.traceIdOf(uplink)).isEqualTo("0193b8a27c4e7d219f3a2b4c6d8e0a1b");
        assertThat(RecordTracing.traceIdOf(null)).isNull();
        assertThat(RecordTracing.traceId(new RecordHeaders(), uplink)).isEqualTo("0193b8a27c4e7d219f3a2b4c6d8e0a1b");
        assertThat(RecordTracing.traceId(headers(TRACEPARENT), uplink))
                .as("a record's own traceparent wins")
                .isEqualTo(TRACE_ID);
        assertThat(RecordTracing.traceId(headers("garbage"), uplink))
                .as("a traceparent that cannot be read names no trace, as before")
                .isNull();
    }

    @Test
    void theUplinksOwnTraceparentIsAWellFormedUnsampledOneWithItsTraceId() {
        var uplink = UUID.fromString("0193b8a2-7c4e-7d21-9f3a-2b4c6d8e0a1b");
        var headers = new RecordHeaders().add("traceparent", RecordTracing.uplinkTraceparent(uplink));

        assertThat(new String(headers.lastHeader("traceparent").value(), StandardCharsets.US_ASCII))
                .isEqualTo("00-0193b8a27c4e7d219f3a2b4c6d8e0a1b-9f3a2b4c6d8e0a1b-00");
        assertThat(RecordTracing.unsampled(headers)).isTrue();
        assertThat(RecordTracing.traceId(headers)).isEqualTo("0193b8a27c4e7d219f3a2b4c6d8e0a1b");
    }

    @Test
    void aFailureOfTheWorkReachesTheCaller() {
        assertThatThrownBy(() -> tracing(registry).observe(record(TRACEPARENT), () -> {
                    throw new IllegalStateException("boom");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("boom");
        assertThat(tracer.currentSpan()).isNull();
    }

    @Test
    void copyTraceHeadersReplacesTheTargetsAndLeavesOthers() {
        var from = new RecordHeaders();
        add(from, "traceparent", TRACEPARENT);
        add(from, "tracestate", "vendor=1");
        add(from, "other", "not copied");
        var to = new RecordHeaders();
        add(to, "traceparent", "00-" + "0".repeat(31) + "1-" + PARENT_SPAN + "-01");
        add(to, "kept", "yes");

        RecordTracing.copyTraceHeaders(from, to);

        assertThat(to.headers("traceparent")).hasSize(1);
        assertThat(RecordTracing.traceId(to)).isEqualTo(TRACE_ID);
        assertThat(new String(to.lastHeader("tracestate").value(), StandardCharsets.UTF_8))
                .isEqualTo("vendor=1");
        assertThat(to.lastHeader("kept")).isNotNull();
        assertThat(to.lastHeader("other")).isNull();
    }

    @Test
    void copyTraceHeadersWithNothingToCopyChangesNothing() {
        var to = new RecordHeaders();
        add(to, "kept", "yes");

        RecordTracing.copyTraceHeaders(new RecordHeaders(), to);

        assertThat(to.toArray()).hasSize(1);
    }

    @Test
    void traceIdIsTheMiddleOfAWellFormedTraceparentOnly() {
        assertThat(RecordTracing.traceId(headers(TRACEPARENT))).isEqualTo(TRACE_ID);
        assertThat(RecordTracing.traceId(headers("garbage"))).isNull();
        assertThat(RecordTracing.traceId(headers("00-abc-" + PARENT_SPAN + "-01")))
                .isNull();
        assertThat(RecordTracing.traceId(headers("00-" + "\"".repeat(32) + "-" + PARENT_SPAN + "-01")))
                .isNull();
        assertThat(RecordTracing.traceId(headers("00-" + TRACE_ID.toUpperCase() + "-" + PARENT_SPAN + "-01")))
                .isNull();
        assertThat(RecordTracing.traceId(new RecordHeaders())).isNull();
        assertThat(RecordTracing.traceId(headers("00-" + TRACE_ID + "-" + PARENT_SPAN)))
                .as("three fields")
                .isNull();
        assertThat(RecordTracing.traceId(headers("01-" + TRACE_ID + "-" + PARENT_SPAN + "-01-extra")))
                .as("a later version's longer form")
                .isEqualTo(TRACE_ID);
    }

    private static RecordTracing tracing(ObservationRegistry registry) {
        return new RecordTracing(registry, "decoder", "decoder");
    }

    private String traceIdInjectedFrom(Span span) {
        var carrier = new RecordHeaders();
        propagator.inject(span.context(), carrier, (headers, key, value) -> add(headers, key, value));
        return RecordTracing.traceId(carrier);
    }

    private static ConsumerRecord<String, byte[]> record(String traceparent) {
        var record = new ConsumerRecord<String, byte[]>("uplinks.encoded", 0, 42L, "device-1", new byte[0]);
        if (traceparent != null) {
            add(record.headers(), "traceparent", traceparent);
        }
        return record;
    }

    private static Headers headers(String traceparent) {
        var headers = new RecordHeaders();
        add(headers, "traceparent", traceparent);
        return headers;
    }

    private static void add(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
