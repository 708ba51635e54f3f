package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.kafka.batching.SendNow;
import dev.iotpipeline.kafka.batching.SendNowRule;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.deadletter.Failures;
import dev.iotpipeline.kafka.deadletter.UnprocessableRecordException;
import dev.iotpipeline.kafka.topic.MintedId;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
import dev.iotpipeline.kafka.tracing.RecordTracing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.support.Acknowledgment;

/**
 * Consumes uplinks in batches; the batch's offsets are committed only after every resulting data unit or
 * dead letter was acknowledged, so a crash replays instead of losing (ids are deterministic downstream).
 * After a partial poll the next poll does not wait for them ({@link OrderedAcks}); after a full one (a backlog) it
 * does, because there the overlap only splits the next batch's writes into more produce requests. When a write
 * fails, everything from the failed batch on is read again and written batch by batch, waiting for each: a failed
 * write then names its record, the error handler commits the records before it, and retries the record (Kafka away)
 * or dead-letters it (a write that can never succeed), so one record never blocks the rest.
 */
class UplinkListener {

    /** Where the listener writes: the pipeline's topics, or (its warm-up's rehearsal) a topic of the warm-up's own. */
    record Outputs(String dataUnits, String deadLetters) {

        static final Outputs PIPELINE =
                new Outputs(PipelineTopic.DATA_UNITS.topicName(), PipelineTopic.DEAD_LETTER.topicName());

        static Outputs rehearsal(String topic) {
            return new Outputs(topic, topic);
        }
    }

    private final UplinkDecoder decoder;
    private final Outputs outputs;
    private final KafkaOperations<String, Object> kafka;
    private final Duration sendTimeout;
    private final DecoderMetrics metrics;
    private final RecordTracing tracing;
    private final SendNowRule sendNowRule;
    private final SendNow sendNow;
    private final OrderedAcks acks;
    private final int batchesInFlight;
    private final int fullPoll;
    /** After a failed write: wait for each batch's writes until one batch succeeded (consumer thread only). */
    private boolean oneAtATime;

    UplinkListener(
            UplinkDecoder decoder,
            Outputs outputs,
            KafkaOperations<String, Object> kafka,
            Duration sendTimeout,
            int sendNowBelow,
            int sendNowFrom,
            int sendNowBelowRate,
            OrderedAcks acks,
            int batchesInFlight,
            int fullPoll,
            DecoderMetrics metrics,
            RecordTracing tracing) {
        this.decoder = decoder;
        this.outputs = outputs;
        this.kafka = kafka;
        this.sendTimeout = sendTimeout;
        this.sendNowRule = new SendNowRule(sendNowBelow, sendNowFrom, sendNowBelowRate);
        this.sendNow = new SendNow(kafka::flush, "decoder-send-now");
        this.acks = acks;
        this.batchesInFlight = batchesInFlight;
        this.fullPoll = fullPoll;
        this.metrics = metrics;
        this.tracing = tracing;
    }

    static final String ID = "decoder";

    @KafkaListener(
            id = ID,
            topics = "#{T(dev.iotpipeline.kafka.topic.PipelineTopic).UPLINKS_ENCODED.topicName()}",
            batch = "true",
            containerPostProcessor = "decoderContainer")
    void onBatch(List<ConsumerRecord<String, byte[]>> records, Acknowledgment ack, Consumer<?, ?> consumer)
            throws InterruptedException {
        var firstOffsets = firstOffsets(records);
        if (readAgainAfterFailure(firstOffsets, consumer)) {
            return;
        }
        long polled = System.currentTimeMillis();
        var writes = new ArrayList<List<CompletableFuture<?>>>(records.size());
        for (var record : records) {
            metrics.hops().since("decoder-poll", record.timestamp());
            // Per record, so each data unit and dead letter continues the trace of its own uplink.
            writes.add(tracing.observe(record, () -> write(record)));
        }
        if (sendNowRule.atOnce(records.size(), records.size())) {
            // Few uplinks came: nothing is busy, so their data units leave now instead of after the linger. Or many
            // came: their produce request is full enough, and the linger would only pause the next poll. Or few
            // come a second: the CPU the linger saves is not needed, and a burst of them would only wait.
            sendNow.request();
        }
        var all = CompletableFuture.allOf(writes.stream().flatMap(List::stream).toArray(CompletableFuture[]::new));
        if (!oneAtATime && batchesInFlight > 0) {
            int count = records.size();
            all.thenRun(() -> recordPublished(count, polled));
            acks.add(all, ack, firstOffsets);
            // A full poll means more are waiting: polling on while its writes are in flight would gain nothing, and the
            // flush it asked for would send the next batch's writes piecemeal as they are appended (~10 % of the
            // batched rate: docs/benchmarks/raw/experiments/adaptive-pipelining.md). A write that failed or took too
            // long is taken up by the next poll or, if none comes, the idle event (readAgainAfterFailure).
            acks.awaitInFlightAtMost(count >= fullPoll ? 0 : batchesInFlight, sendTimeout);
            return;
        }
        try {
            all.get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // Examined record by record below, in offset order.
        }
        for (int i = 0; i < records.size(); i++) {
            for (var write : writes.get(i)) {
                if (!write.isDone()) {
                    throw new BatchListenerFailedException(
                            "Writes of " + DeadLetterHeaders.source(records.get(i)) + " timed out",
                            new TimeoutException("not acknowledged within " + sendTimeout),
                            i);
                }
                if (write.isCompletedExceptionally()) {
                    throw new BatchListenerFailedException(
                            "Writes of " + DeadLetterHeaders.source(records.get(i)) + " failed",
                            classify(write.exceptionNow()),
                            i);
                }
            }
        }
        recordPublished(records.size(), polled);
        acks.add(CompletableFuture.completedFuture(null), ack, firstOffsets);
        oneAtATime = false;
    }

    /**
     * The stream paused (the container's idle event, on the consumer thread): acknowledges what is written, or, when
     * a write failed and no poll came after it, reads it again, so its uplink does not wait for the next one.
     */
    void whenIdle(Consumer<?, ?> consumer) {
        if (!readAgainAfterFailure(Map.of(), consumer)) {
            acks.give(true);
        }
    }

    /** Waits up to {@code timeout} for every polled batch's writes; false when one failed or did not finish. */
    boolean awaitWrites(Duration timeout) throws InterruptedException {
        return acks.awaitInFlightAtMost(0, timeout);
    }

    /**
     * When an earlier batch's write failed: nothing from it on is acknowledged; everything from it on, and the
     * batch just polled (starting at {@code current}), is read again one batch at a time, so that the error handler
     * sees the record whose write fails.
     */
    private boolean readAgainAfterFailure(Map<TopicPartition, Long> current, Consumer<?, ?> consumer) {
        var readAgain = acks.takeFailure(current);
        if (readAgain == null) {
            return false;
        }
        readAgain.forEach(consumer::seek);
        oneAtATime = true;
        return true;
    }

    /** The decoder-publish hop of a batch's {@code count} uplinks: from their poll to their writes acknowledged. */
    private void recordPublished(int count, long polled) {
        var published = metrics.hops().hop("decoder-publish");
        long took = System.currentTimeMillis() - polled;
        for (int i = 0; i < count; i++) {
            published.record(took, TimeUnit.MILLISECONDS);
        }
    }

    /** Where each partition of the batch starts (a poll's records come partition by partition). */
    private static Map<TopicPartition, Long> firstOffsets(List<ConsumerRecord<String, byte[]>> records) {
        var first = new HashMap<TopicPartition, Long>();
        ConsumerRecord<String, byte[]> previous = null;
        for (var record : records) {
            if (previous == null
                    || previous.partition() != record.partition()
                    || !previous.topic().equals(record.topic())) {
                first.putIfAbsent(new TopicPartition(record.topic(), record.partition()), record.offset());
            }
            previous = record;
        }
        return first;
    }

    /** Sends the record's data units, or its dead letter; a send that throws becomes a failed write. */
    private List<CompletableFuture<?>> write(ConsumerRecord<String, byte[]> record) {
        long started = System.nanoTime();
        var outcome = decoder.decode(record.value());
        metrics.latency().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        var sends = new ArrayList<CompletableFuture<?>>(1);
        try {
            switch (outcome) {
                case Outcome.Decoded(var unit, var history, var uplink) -> {
                    metrics.decoded(unit.deviceType());
                    // An id ingest minted can never be reused by a sender, so its data units need no digest: the mark.
                    Long digest = MintedId.isMarked(record.headers()) ? null : UplinkDigest.of(uplink);
                    for (var earlier : history) {
                        sends.add(kafka.send(traced(record, dataUnit(earlier, digest))));
                    }
                    sends.add(kafka.send(traced(record, dataUnit(unit, digest))));
                }
                case Outcome.DeadLetter dead -> {
                    metrics.deadLettered(dead.cause());
                    sends.add(kafka.send(traced(record, deadLetter(record, dead))));
                }
            }
        } catch (RuntimeException e) {
            sends.add(CompletableFuture.failedFuture(e));
        }
        return sends;
    }

    /**
     * The uplink's trace headers on an output: kept as they are when the trace is not sampled; replaced by the
     * send's own span when it is.
     */
    private static ProducerRecord<String, Object> traced(
            ConsumerRecord<String, byte[]> in, ProducerRecord<String, Object> out) {
        RecordTracing.copyTraceHeaders(in.headers(), out.headers());
        return out;
    }

    /**
     * A data unit with its uplink's digest, or, when {@code uplinkDigest} is null, the mark of an id ingest minted:
     * one header either way (each costs every producer and consumer of the record).
     */
    private ProducerRecord<String, Object> dataUnit(DataUnit unit, Long uplinkDigest) {
        ProducerRecord<String, Object> out = new ProducerRecord<>(outputs.dataUnits(), unit.deviceId(), unit);
        if (uplinkDigest == null) {
            MintedId.mark(out.headers());
        } else {
            UplinkDigest.add(out.headers(), uplinkDigest);
        }
        return out;
    }

    /** A write that waiting cannot fix (too large, not serializable) marks the uplink unpublishable. */
    private static Throwable classify(Throwable failure) {
        return Failures.isTransient(failure)
                ? failure
                : new UnprocessableRecordException(
                        DeadLetterHeaders.CAUSE_UNPUBLISHABLE,
                        "its output cannot be written to Kafka: " + failure,
                        failure);
    }

    /** The original record, unchanged, with headers naming the cause, reason, device type and codec. */
    private ProducerRecord<String, Object> deadLetter(ConsumerRecord<String, byte[]> record, Outcome.DeadLetter dead) {
        ProducerRecord<String, Object> out = new ProducerRecord<>(outputs.deadLetters(), record.key(), record.value());
        DeadLetterHeaders.addCommon(
                out.headers(),
                record,
                dead.cause().tag(),
                dead.reason(),
                DeadLetterHeaders.STAGE_DECODE,
                Instant.now());
        DeadLetterHeaders.add(out.headers(), DeadLetterHeaders.DEVICE_TYPE, dead.deviceType());
        DeadLetterHeaders.add(out.headers(), DeadLetterHeaders.CODEC, dead.codec());
        return out;
    }
}
