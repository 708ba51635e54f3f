package dev.iotpipeline.kafka.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.micrometer.KafkaRecordReceiverContext;
import org.springframework.kafka.support.micrometer.KafkaRecordSenderContext;

class SampledHopsOnlyTest {

    private static final String UNSAMPLED = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
    private static final String SAMPLED = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final SampledHopsOnly predicate = new SampledHopsOnly();

    @Test
    void aSendOfAnUnsampledTraceIsNotObserved() {
        assertThat(predicate.test("spring.kafka.template", sent(UNSAMPLED))).isFalse();
    }

    @Test
    void aSendOfASampledTraceIsObserved() {
        assertThat(predicate.test("spring.kafka.template", sent(SAMPLED))).isTrue();
    }

    @Test
    void aSendWithoutTraceIsObservedOnlyInsideAnotherObservation() {
        assertThat(predicate.test("spring.kafka.template", sent(null)))
                .as("the uplink's own unsampled trace")
                .isFalse();
        var inside = sent(null);
        inside.setParentObservation(Observation.start("http.server.requests", ObservationRegistry.create()));
        assertThat(predicate.test("spring.kafka.template", inside)).isTrue();
    }

    @Test
    void aReceiveIsObservedOnlyForASampledTrace() {
        assertThat(predicate.test("spring.kafka.listener", received(UNSAMPLED))).isFalse();
        assertThat(predicate.test("spring.kafka.listener", received(null))).isFalse();
        assertThat(predicate.test("spring.kafka.listener", received(SAMPLED))).isTrue();
    }

    @Test
    void otherObservationsAreLeftAlone() {
        assertThat(predicate.test("http.server.requests", new Observation.Context()))
                .isTrue();
    }

    private static KafkaRecordSenderContext sent(String traceparent) {
        var record = new ProducerRecord<String, String>("data-units", "device-1", "{}");
        if (traceparent != null) {
            record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.US_ASCII));
        }
        return new KafkaRecordSenderContext(record, "template", () -> null);
    }

    private static KafkaRecordReceiverContext received(String traceparent) {
        var record = new ConsumerRecord<String, String>("uplinks.encoded", 0, 1L, "device-1", "{}");
        if (traceparent != null) {
            record.headers().add("traceparent", traceparent.getBytes(StandardCharsets.US_ASCII));
        }
        return new KafkaRecordReceiverContext(record, "decoder", "decoder", "decoder", () -> null);
    }
}
