package dev.iotpipeline.kafka.deadletter;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.ConsumerRecordRecoverer;
import org.springframework.kafka.streams.RecoveringDeserializationExceptionHandler;

/**
 * Dead letters for a Kafka Streams topology: records that do not deserialize (Spring's
 * {@link RecoveringDeserializationExceptionHandler}) and records a processor throws on (KIP-1033's
 * {@code processing.exception.handler}) are handed to one recoverer, and processing continues.
 */
public final class StreamsDeadLetters implements ProcessingExceptionHandler {

    /** Streams config key under which {@link #configure(Properties, ConsumerRecordRecoverer)} puts the recoverer. */
    static final String RECOVERER = "iot.processing.recoverer";

    private static final Logger log = LoggerFactory.getLogger(StreamsDeadLetters.class);

    private ConsumerRecordRecoverer recoverer;

    /** Adds both handlers, sharing {@code recoverer}, to a Streams configuration. */
    public static void configure(Properties streamsConfig, ConsumerRecordRecoverer recoverer) {
        streamsConfig.put(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                RecoveringDeserializationExceptionHandler.class);
        streamsConfig.put(RecoveringDeserializationExceptionHandler.KSTREAM_DESERIALIZATION_RECOVERER, recoverer);
        streamsConfig.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, StreamsDeadLetters.class);
        streamsConfig.put(RECOVERER, recoverer);
    }

    @Override
    public void configure(Map<String, ?> configs) {
        if (!(configs.get(RECOVERER) instanceof ConsumerRecordRecoverer configured)) {
            throw new IllegalStateException("No " + RECOVERER + " in the Streams configuration");
        }
        this.recoverer = configured;
    }

    /**
     * Processing failures are thrown by our own processors on one record, so retrying cannot help; a failure
     * outside any input record (a punctuation) has nothing to dead-letter and is only logged. If the dead
     * letter cannot be written (Kafka away) the thread fails, is replaced, and the record comes again.
     */
    @Override
    public ProcessingHandlerResponse handle(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (context.topic() == null || context.sourceRawValue() == null && context.sourceRawKey() == null) {
            log.error("Processing failed outside an input record at {}", context.processorNodeId(), exception);
            return ProcessingHandlerResponse.CONTINUE;
        }
        var source = new ConsumerRecord<>(
                context.topic(),
                context.partition(),
                context.offset(),
                context.timestamp(),
                TimestampType.CREATE_TIME,
                ConsumerRecord.NULL_SIZE,
                ConsumerRecord.NULL_SIZE,
                context.sourceRawKey(),
                context.sourceRawValue(),
                context.headers(),
                Optional.empty());
        try {
            recoverer.accept(source, exception);
            return ProcessingHandlerResponse.CONTINUE;
        } catch (RuntimeException e) {
            log.error("Could not dead-letter {}-{}@{}", context.topic(), context.partition(), context.offset(), e);
            return ProcessingHandlerResponse.FAIL;
        }
    }
}
