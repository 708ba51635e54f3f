package dev.iotpipeline.decoder.deadletter;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Sends dead letters back to uplinks.encoded after a codec was fixed. The originals are resent unchanged,
 * so their ids, and the data-unit ids derived from them, stay the same: a redrive of something already
 * redriven is stored once. What fails again is dead-lettered again, with its new reason.
 */
public final class DeadLetterRedrive {

    /** What one redrive looked at and resent. */
    public record Result(long scanned, long redriven) {}

    private final Map<String, Object> kafkaClient;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;

    public DeadLetterRedrive(
            Map<String, Object> kafkaClient, KafkaOperations<String, Object> kafka, Duration sendTimeout) {
        this.kafkaClient = kafkaClient;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
    }

    /** Resends the dead letters written since {@code since} (all when null) whose device type matches (any when null). */
    public Result redrive(String deviceType, Instant since) throws Exception {
        var scanned = new AtomicLong();
        var sends = new ArrayList<CompletableFuture<?>>();
        try (var reader = TopicReader.open(
                kafkaClient, "decoder-redrive-" + Ids.newId(), PipelineTopic.DEAD_LETTER.topicName(), Map.of())) {
            reader.assign();
            if (since == null) {
                reader.seekToBeginning();
            } else {
                reader.seek(reader.offsetsAt(since.toEpochMilli(), reader.partitions()));
            }
            reader.read(
                    record -> {
                        scanned.incrementAndGet();
                        // A dead letter too large to keep its value has nothing to resend.
                        if (record.value() != null && matches(record, deviceType)) {
                            sends.add(kafka.send(
                                    PipelineTopic.UPLINKS_ENCODED.topicName(), record.key(), record.value()));
                        }
                        return true;
                    },
                    deleted -> true);
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                    .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        return new Result(scanned.get(), sends.size());
    }

    private static boolean matches(ConsumerRecord<String, byte[]> record, String deviceType) {
        if (deviceType == null) {
            return true;
        }
        var header = record.headers().lastHeader(DeadLetterHeaders.DEVICE_TYPE);
        return header != null && deviceType.equals(new String(header.value(), StandardCharsets.UTF_8));
    }
}
