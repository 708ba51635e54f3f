package dev.iotpipeline.kafka.deadletter;

import java.time.Duration;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;
import tools.jackson.core.JacksonException;

/**
 * How a listener's failures are retried: transient ones (see {@link Failures}) with an exponential back-off
 * and no limit, known permanent ones not at all, anything else {@value #UNCLASSIFIED_ATTEMPTS} times; a record
 * that is not retried (again) goes to the recoverer, so no record holds its partition for good.
 */
public record RetryPolicy(Duration initialInterval, Duration maxInterval) {

    /** Attempts, in all, for a failure neither known transient nor known permanent. */
    public static final int UNCLASSIFIED_ATTEMPTS = 3;

    /** The error handler for {@code @KafkaListener} containers; batch listeners throw BatchListenerFailedException. */
    public DefaultErrorHandler errorHandler(ConsumerRecordRecoverer recoverer) {
        var handler = new DefaultErrorHandler(recoverer, untilItWorks());
        handler.addNotRetryableExceptions(
                UnprocessableRecordException.class,
                RecordTooLargeException.class,
                RecordBatchTooLargeException.class,
                SerializationException.class,
                JacksonException.class,
                DataIntegrityViolationException.class);
        handler.setBackOffFunction((record, failure) -> Failures.isTransient(failure) ? untilItWorks() : fewTimes());
        return handler;
    }

    /** Unlimited exponential back-off, capped at {@link #maxInterval()} per wait. */
    public BackOff untilItWorks() {
        var backOff = new ExponentialBackOff(initialInterval.toMillis(), 2.0);
        backOff.setMaxInterval(maxInterval.toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Long.MAX_VALUE);
        return backOff;
    }

    private BackOff fewTimes() {
        return new FixedBackOff(initialInterval.toMillis(), UNCLASSIFIED_ATTEMPTS - 1);
    }
}
