package dev.iotpipeline.decoder.deadletter;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.ReaderProperties;
import dev.iotpipeline.events.DeadLetterHeaders;
import dev.iotpipeline.events.PipelineTopic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Sends dead letters back to uplinks.encoded after a codec was fixed. The originals are resent unchanged,
 * so their ids, and the data-unit ids derived from them, stay the same: a redrive of something already
 * redriven is stored once. What fails again is dead-lettered again, with its new reason.
 */
public final class DeadLetterRedrive {

    /** What one redrive looked at and resent. */
    public record Result(long scanned, long redriven) {
    }

    private final Map<String, Object> kafkaClient;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;

    public DeadLetterRedrive(Map<String, Object> kafkaClient, KafkaOperations<String, Object> kafka,
            Duration sendTimeout) {
        this.kafkaClient = kafkaClient;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
    }

    /** Resends the dead letters written since {@code since} (all when null) whose device type matches (any when null). */
    public Result redrive(String deviceType, Instant since) throws Exception {
        var props = ReaderProperties.reader(kafkaClient, "decoder-redrive-" + Ids.newId());
        long scanned = 0;
        long redriven = 0;
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            var partitions = consumer.partitionsFor(PipelineTopic.DEAD_LETTER.topicName(), Duration.ofSeconds(10))
                    .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
            seekToStart(consumer, partitions, since);
            var sends = new ArrayList<CompletableFuture<?>>();
            while (!end.isEmpty()) {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    var partition = new TopicPartition(record.topic(), record.partition());
                    if (!end.containsKey(partition) || record.offset() >= end.get(partition)) {
                        continue;
                    }
                    scanned++;
                    if (matches(record, deviceType)) {
                        sends.add(kafka.send(PipelineTopic.UPLINKS_ENCODED.topicName(), record.key(), record.value()));
                        redriven++;
                    }
                }
                end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                    .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        return new Result(scanned, redriven);
    }

    private static void seekToStart(KafkaConsumer<String, byte[]> consumer, List<TopicPartition> partitions,
            Instant since) {
        if (since == null) {
            consumer.seekToBeginning(partitions);
            return;
        }
        var query = new HashMap<TopicPartition, Long>();
        partitions.forEach(p -> query.put(p, since.toEpochMilli()));
        consumer.offsetsForTimes(query).forEach((partition, found) -> {
            if (found == null) {
                consumer.seekToEnd(List.of(partition));
            } else {
                consumer.seek(partition, found.offset());
            }
        });
    }

    private static boolean matches(ConsumerRecord<String, byte[]> record, String deviceType) {
        if (deviceType == null) {
            return true;
        }
        var header = record.headers().lastHeader(DeadLetterHeaders.DEVICE_TYPE);
        return header != null && deviceType.equals(new String(header.value(), StandardCharsets.UTF_8));
    }
}
