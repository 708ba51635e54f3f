package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.kafka.ForwardingRebalanceListener;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.support.Acknowledgment;

/**
 * The decoder's polled batches whose writes are in flight, acknowledged in poll order once each one's writes, and
 * every earlier batch's, have succeeded, and at most once per interval, so the consumer goes on polling without
 * committing more often or ahead of what is written.
 *
 * <p>Used by the decoder's one consumer thread only: the listener, the container's idle event and its rebalance
 * callbacks (an acknowledgment given there is committed by the container without a hand-over).
 */
final class OrderedAcks {

    /** One polled batch: its writes, its acknowledgment, and where each of its partitions starts. */
    private record Batch(CompletableFuture<?> writes, Acknowledgment ack, Map<TopicPartition, Long> firstOffsets) {}

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final ArrayDeque<Batch> pending = new ArrayDeque<>();
    private long lastGiven;

    OrderedAcks(Duration interval, LongSupplier nanoTime) {
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.lastGiven = nanoTime.getAsLong() - intervalNanos;
    }

    /**
     * A batch whose writes were sent; it is acknowledged after every batch added before it. {@code firstOffsets} is
     * kept as it is: the caller does not change it afterwards.
     */
    void add(CompletableFuture<?> writes, Acknowledgment ack, Map<TopicPartition, Long> firstOffsets) {
        pending.add(new Batch(writes, ack, firstOffsets));
        give(false);
    }

    /**
     * Waits until at most {@code max} batches have writes in flight, each wait bounded by {@code timeout}; false
     * when a write failed or did not finish in time (then {@link #takeFailure} says where to read again).
     */
    boolean awaitInFlightAtMost(int max, Duration timeout) throws InterruptedException {
        while (true) {
            CompletableFuture<?> oldest = null;
            int inFlight = 0;
            for (var batch : pending) {
                if (batch.writes().isCompletedExceptionally()) {
                    return false;
                }
                if (!batch.writes().isDone()) {
                    inFlight++;
                    if (oldest == null) {
                        oldest = batch.writes();
                    }
                }
            }
            if (inFlight <= max) {
                return true;
            }
            try {
                oldest.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                return false;
            } catch (TimeoutException e) {
                oldest.completeExceptionally(e);
                return false;
            }
        }
    }

    /**
     * After a failed write: acknowledges the batches before it at once, forgets the rest, and returns where each of
     * their partitions must be read again, together with {@code current}'s (a batch just polled and not sent), or
     * null when nothing failed.
     */
    Map<TopicPartition, Long> takeFailure(Map<TopicPartition, Long> current) {
        if (pending.stream().noneMatch(batch -> batch.writes().isCompletedExceptionally())) {
            return null;
        }
        give(true);
        var readAgain = new HashMap<>(current);
        for (var batch : pending) {
            batch.firstOffsets().forEach((partition, offset) -> readAgain.merge(partition, offset, Math::min));
        }
        pending.clear();
        return readAgain;
    }

    /**
     * Gives the acknowledgments of the leading batches whose writes all succeeded, in poll order: at once with
     * {@code now}, else when the interval since the last ones has passed.
     */
    void give(boolean now) {
        if (pending.isEmpty() || !succeeded(pending.peek())) {
            return;
        }
        if (!now && nanoTime.getAsLong() - lastGiven < intervalNanos) {
            return;
        }
        while (!pending.isEmpty() && succeeded(pending.peek())) {
            pending.poll().ack().acknowledge();
        }
        lastGiven = nanoTime.getAsLong();
    }

    int pending() {
        return pending.size();
    }

    /**
     * Before partitions are given up (a rebalance, or the consumer stopping): waits up to {@code timeout} for the
     * writes in flight and acknowledges what they wrote, so the next owner does not read it again; what did not
     * finish is read again by whoever owns its partition next. Lost partitions can no longer be committed.
     */
    ConsumerAwareRebalanceListener following(ConsumerRebalanceListener delegate, Duration timeout) {
        return new ForwardingRebalanceListener(delegate) {

            @Override
            public void onPartitionsRevokedBeforeCommit(
                    Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                try {
                    awaitInFlightAtMost(0, timeout);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                give(true);
                pending.clear();
                super.onPartitionsRevokedBeforeCommit(consumer, partitions);
            }

            @Override
            public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
                pending.clear();
                super.onPartitionsLost(consumer, partitions);
            }
        };
    }

    private static boolean succeeded(Batch batch) {
        return batch.writes().isDone() && !batch.writes().isCompletedExceptionally();
    }
}
