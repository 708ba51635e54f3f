package dev.iotpipeline.kafka.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import org.springframework.kafka.support.micrometer.KafkaRecordReceiverContext;
import org.springframework.kafka.support.micrometer.KafkaRecordSenderContext;

/**
 * Observes a Kafka send or receive only when its record's trace is sampled: a record that already carries an
 * unsampled {@code traceparent} keeps it as it is, and its observation (timers, key values, a span nobody
 * records) is skipped.
 */
public final class SampledHopsOnly implements ObservationPredicate {

    @Override
    public boolean test(String name, Observation.Context context) {
        if (context instanceof KafkaRecordSenderContext sent) {
            return !RecordTracing.unsampled(sent.getCarrier().headers());
        }
        if (context instanceof KafkaRecordReceiverContext received) {
            return !RecordTracing.unsampled(received.getCarrier().headers());
        }
        return true;
    }
}
