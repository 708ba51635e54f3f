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
    private final DecoderMetrics metrics;

    UplinkListener(UplinkDecoder decoder, KafkaOperations<String, Object> kafka, Duration sendTimeout,
            DecoderMetrics metrics) {
        this.decoder = decoder;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
        this.metrics = metrics;
    }

    @KafkaListener(id = "decoder", topics = "#{T(dev.iotpipeline.events.PipelineTopic).UPLINKS_ENCODED.topicName()}",
            batch = "true")
    void onBatch(List<ConsumerRecord<String, byte[]>> records) throws Exception {
        var sends = new ArrayList<CompletableFuture<?>>(records.size());
        for (var record : records) {
            long started = System.nanoTime();
            var outcome = decoder.decode(record.value());
            metrics.latency().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            sends.add(switch (outcome) {
                case Outcome.Decoded(var unit, var history) -> {
                    metrics.decoded(unit.deviceType());
                    for (var earlier : history) {
                        sends.add(kafka.send(PipelineTopic.DATA_UNITS.topicName(), earlier.deviceId(), earlier));
                    }
                    yield kafka.send(PipelineTopic.DATA_UNITS.topicName(), unit.deviceId(), unit);
                }
                case Outcome.DeadLetter dead -> {
                    metrics.deadLettered(dead.cause());
                    yield kafka.send(deadLetter(record, dead));
                }
            });
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                .get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The original record, unchanged, with headers naming the cause, reason, device type and codec. */
    private static ProducerRecord<String, Object> deadLetter(ConsumerRecord<String, byte[]> record,
            Outcome.DeadLetter dead) {
        var out = new ProducerRecord<String, Object>(PipelineTopic.DEAD_LETTER.topicName(), record.key(),
                record.value());
        header(out, DeadLetterHeaders.CAUSE, dead.cause().tag());
        header(out, DeadLetterHeaders.REASON, dead.reason());
        header(out, DeadLetterHeaders.STAGE, "decode");
        header(out, DeadLetterHeaders.DEVICE_TYPE, dead.deviceType());
        header(out, DeadLetterHeaders.CODEC, dead.codec());
        header(out, DeadLetterHeaders.SOURCE, record.topic() + "-" + record.partition() + "@" + record.offset());
        header(out, DeadLetterHeaders.FAILED_AT, Instant.now().toString());
        return out;
    }

    private static void header(ProducerRecord<String, Object> record, String name, String value) {
        if (value != null) {
            record.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
        }
    }
}
