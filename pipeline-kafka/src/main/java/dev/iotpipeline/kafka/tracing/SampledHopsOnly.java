package dev.iotpipeline.kafka.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import org.springframework.kafka.support.micrometer.KafkaRecordReceiverContext;
import org.springframework.kafka.support.micrometer.KafkaRecordSenderContext;

/**
 * Observes a Kafka send or receive only when its record's trace is sampled: a record that carries an unsampled
 * {@code traceparent}, or none (its uplink's own unsampled trace, {@link TraceStart}), is sent and received without
 * an observation (timers, key values, a span nobody records). A send without one inside another observation (an
 * operator's HTTP request, say) is that observation's to trace, and is observed.
 */
public final class SampledHopsOnly implements ObservationPredicate {

    @Override
    public boolean test(String name, Observation.Context context) {
        if (context instanceof KafkaRecordSenderContext sent) {
            var headers = sent.getCarrier().headers();
            return headers.lastHeader(RecordTracing.TRACEPARENT) == null
                    ? context.getParentObservation() != null
                    : !RecordTracing.unsampled(headers);
        }
        if (context instanceof KafkaRecordReceiverContext received) {
            return RecordTracing.sampled(received.getCarrier().headers());
        }
        return true;
    }
}
