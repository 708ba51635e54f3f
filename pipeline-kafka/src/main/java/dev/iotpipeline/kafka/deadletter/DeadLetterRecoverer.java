package dev.iotpipeline.kafka.deadletter;

import dev.iotpipeline.kafka.topic.PipelineTopic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * Publishes a record that can never be processed to a dead-letter topic: value and key unchanged, Spring's
 * {@code kafka_dlt-*} headers naming the failure, and ours ({@link DeadLetterHeaders}) naming cause and stage.
 */
public class DeadLetterRecoverer extends DeadLetterPublishingRecoverer {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterRecoverer.class);
    private static final int MAX_REASON = 1000;
    private static final int MAX_STACK_TRACE = 16_000;

    private final PipelineTopic<?> topic;
    private final String stage;
    private final MeterRegistry meters;

    /**
     * @param template sends the dead letters; must serialize the consumed key and value types as they are
     * @param group the consumer group (or Streams application id), written when the failure does not name it
     * @param meters counts dead letters as {@code pipeline.dead.letters} by topic, stage and cause
     */
    public DeadLetterRecoverer(
            KafkaOperations<?, ?> template,
            PipelineTopic<?> topic,
            String stage,
            String group,
            Clock clock,
            MeterRegistry meters) {
        // A negative partition lets the producer choose by key: the dead-letter topic need not mirror the source.
        super(template, (record, e) -> new TopicPartition(topic.topicName(), -1));
        this.topic = topic;
        this.stage = stage;
        this.meters = meters;
        setExceptionHeadersCreator(DeadLetterRecoverer::exceptionHeaders);
        setHeadersFunction((record, e) -> pipelineHeaders(record, e, stage, group, clock));
    }

    @Override
    public void accept(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer, Exception exception) {
        super.accept(record, consumer, exception);
        Counter.builder("pipeline.dead.letters")
                .description("Records sent to a dead-letter topic")
                .tag("topic", topic.topicName())
                .tag("stage", stage)
                .tag("cause", causeTag(exception))
                .register(meters)
                .increment();
        log.warn(
                "Dead-lettered {}-{}@{} to {} ({}): {}",
                record.topic(),
                record.partition(),
                record.offset(),
                topic.topicName(),
                causeTag(exception),
                reason(exception));
    }

    /**
     * A dead letter larger than the producer or the topic takes (a failed record near the size limit, plus the
     * failure's headers) goes out without the stack trace, and if it is still too large, without the record's value
     * ({@link DeadLetterHeaders#VALUE_DROPPED}): published as it was, it would fail again at every redelivery and
     * hold its partition for good. Sent here rather than by Spring's {@code publish}, which logs a send refused at
     * once (the producer's own size check) and throws without its cause.
     */
    @Override
    protected void publish(
            ProducerRecord<Object, Object> deadLetter,
            KafkaOperations<Object, Object> template,
            ConsumerRecord<?, ?> failed) {
        if (sent(deadLetter, template, failed)) {
            return;
        }
        var headers = new RecordHeaders(deadLetter.headers().toArray());
        headers.remove(KafkaHeaders.DLT_EXCEPTION_STACKTRACE);
        headers.remove(KafkaHeaders.DLT_KEY_EXCEPTION_STACKTRACE);
        if (sent(withValue(deadLetter, deadLetter.value(), headers), template, failed)) {
            log.warn(
                    "Dead letter for {} published without its stack trace: too large",
                    DeadLetterHeaders.source(failed));
            return;
        }
        long size = deadLetter.value() instanceof byte[] bytes ? bytes.length : failed.serializedValueSize();
        DeadLetterHeaders.add(headers, DeadLetterHeaders.VALUE_DROPPED, Long.toString(size));
        var withoutValue = withValue(deadLetter, null, headers);
        verifySendResult(template, withoutValue, template.send(withoutValue), failed);
        log.warn(
                "Dead letter for {} published without its value ({} bytes): too large even without the stack trace",
                DeadLetterHeaders.source(failed),
                size);
    }

    /** Sends and waits for the broker's answer: false when the record was too large, the failure thrown otherwise. */
    private boolean sent(
            ProducerRecord<Object, Object> deadLetter,
            KafkaOperations<Object, Object> template,
            ConsumerRecord<?, ?> failed) {
        try {
            verifySendResult(template, deadLetter, template.send(deadLetter), failed);
            return true;
        } catch (RuntimeException e) {
            if (Failures.find(e, RecordTooLargeException.class) == null) {
                throw e;
            }
            return false;
        }
    }

    private static ProducerRecord<Object, Object> withValue(
            ProducerRecord<Object, Object> record, Object value, Headers headers) {
        return new ProducerRecord<>(
                record.topic(), record.partition(), record.timestamp(), record.key(), value, headers);
    }

    /** The {@code dlt-cause} tag for a failure: the one it names, else {@code processing-error}. */
    public static String causeTag(Throwable failure) {
        var unprocessable = Failures.find(failure, UnprocessableRecordException.class);
        return unprocessable != null ? unprocessable.deadLetterCause() : DeadLetterHeaders.CAUSE_PROCESSING_ERROR;
    }

    private static Headers pipelineHeaders(
            ConsumerRecord<?, ?> record, Exception failure, String stage, String group, Clock clock) {
        var headers = new RecordHeaders();
        DeadLetterHeaders.addCommon(
                headers, record, causeTag(failure), truncate(reason(failure), MAX_REASON), stage, clock.instant());
        // Spring names the group only for listener failures; Streams and direct calls get it here.
        boolean named = failure instanceof ListenerExecutionFailedException listener && listener.getGroupId() != null;
        if (!named && group != null) {
            DeadLetterHeaders.add(headers, KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP, group);
        }
        return headers;
    }

    /** Our own summary if the failure carries one, else the message of what actually failed. */
    private static String reason(Throwable failure) {
        var unprocessable = Failures.find(failure, UnprocessableRecordException.class);
        if (unprocessable != null && unprocessable.getMessage() != null) {
            return unprocessable.getMessage();
        }
        var actual = actual(failure);
        return actual.getMessage() != null
                ? actual.getMessage()
                : actual.getClass().getName();
    }

    /**
     * Spring's default would describe the container's wrappers (ListenerExecutionFailedException around
     * BatchListenerFailedException); a reader of the dead letter needs the exception underneath.
     */
    private static void exceptionHeaders(Headers headers, Exception failure, boolean isKey, HeaderNames names) {
        var info = names.getExceptionInfo();
        var actual = actual(failure);
        replace(
                headers,
                isKey ? info.getKeyExceptionFqcn() : info.getExceptionFqcn(),
                actual.getClass().getName());
        if (actual.getCause() != null) {
            replace(
                    headers,
                    info.getExceptionCauseFqcn(),
                    actual.getCause().getClass().getName());
        }
        if (actual.getMessage() != null) {
            replace(
                    headers,
                    isKey ? info.getKeyExceptionMessage() : info.getExceptionMessage(),
                    truncate(actual.getMessage(), MAX_REASON * 4));
        }
        var trace = new StringWriter();
        actual.printStackTrace(new PrintWriter(trace, true));
        replace(
                headers,
                isKey ? info.getKeyExceptionStacktrace() : info.getExceptionStacktrace(),
                truncate(trace.toString(), MAX_STACK_TRACE));
    }

    /** The failure without the wrappers added on its way up (container, batch index, futures, our tag). */
    static Throwable actual(Throwable failure) {
        var t = failure;
        while (t.getCause() != null
                && t.getCause() != t
                && (t instanceof ListenerExecutionFailedException
                        || t instanceof BatchListenerFailedException
                        || t instanceof ExecutionException
                        || t instanceof CompletionException
                        || t instanceof UnprocessableRecordException)) {
            t = t.getCause();
        }
        return t;
    }

    private static void replace(Headers headers, String name, String value) {
        headers.remove(name);
        DeadLetterHeaders.add(headers, name, value);
    }

    private static String truncate(String value, int max) {
        return value.length() <= max ? value : value.substring(0, max) + "…";
    }
}
