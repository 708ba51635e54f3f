package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.DeadLetterHeaders;
import dev.iotpipeline.events.PipelineTopic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Consumes uplinks in batches; the batch's offsets are committed only after every resulting data unit or
 * dead letter was acknowledged, so a crash replays instead of losing (ids are deterministic downstream).
 */
class UplinkListener {

    private final UplinkDecoder decoder;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;

    UplinkListener(UplinkDecoder decoder, KafkaOperations<String, Object> kafka, Duration sendTimeout) {
        this.decoder = decoder;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
    }

    @KafkaListener(id = "decoder", topics = "#{T(dev.iotpipeline.events.PipelineTopic).UPLINKS_ENCODED.topicName()}",
            batch = "true")
    void onBatch(List<ConsumerRecord<String, byte[]>> records) throws Exception {
        var sends = new ArrayList<CompletableFuture<?>>(records.size());
        for (var record : records) {
            sends.add(switch (decoder.decode(record.value())) {
                case Outcome.Decoded(var unit) -> kafka.send(PipelineTopic.DATA_UNITS.topicName(), unit.deviceId(), unit);
                case Outcome.DeadLetter(var reason) -> kafka.send(deadLetter(record, reason));
            });
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static ProducerRecord<String, Object> deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        var out = new ProducerRecord<String, Object>(PipelineTopic.DEAD_LETTER.topicName(), record.key(),
                record.value());
        out.headers().add(DeadLetterHeaders.REASON, reason.getBytes(StandardCharsets.UTF_8));
        out.headers().add(DeadLetterHeaders.STAGE, "decode".getBytes(StandardCharsets.UTF_8));
        out.headers().add(DeadLetterHeaders.FAILED_AT, Instant.now().toString().getBytes(StandardCharsets.UTF_8));
        return out;
    }
}
