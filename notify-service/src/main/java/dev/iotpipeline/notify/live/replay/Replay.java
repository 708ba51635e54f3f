package dev.iotpipeline.notify.live.replay;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.topic.TopicReader;
import dev.iotpipeline.notify.live.feed.DeliveryLog;
import dev.iotpipeline.notify.live.feed.LiveEvent;
import dev.iotpipeline.notify.live.feed.Seam;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry;
import dev.iotpipeline.notify.live.session.LiveMetrics;
import dev.iotpipeline.notify.live.wire.ServerMessages;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a stream from Kafka for a subscription that asked for {@code since}, then joins it to the live
 * stream at its {@link Seam}. Kafka rather than PostgreSQL is the source: it holds every event in the order
 * the live feed saw it, with offsets that make the seam exact, and it is never behind the live stream. What
 * retention already deleted is announced with a {@code gap} message, never skipped in silence.
 */
public final class Replay {

    /**
     * Where a replay starts: exact per-partition offsets (an id this instance delivered), an event to find in
     * the topic (an id it did not: another instance's, or older than its delivery log), or a time.
     */
    public record From(Map<Integer, Long> offsets, UUID event, Instant time) {

        static From offsets(Map<Integer, Long> offsets) {
            return new From(offsets, null, null);
        }

        static From event(UUID id) {
            return new From(null, id, null);
        }

        static From time(Instant time) {
            return new From(null, null, time);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(Replay.class);

    private final Map<String, Object> kafkaClient;
    private final Semaphore running;
    private final LiveMetrics metrics;

    public Replay(Map<String, Object> kafkaClient, int concurrentReplays, LiveMetrics metrics) {
        this.kafkaClient = kafkaClient;
        this.running = new Semaphore(concurrentReplays);
        this.metrics = metrics;
    }

    /**
     * Resolves a client's {@code since}: an ISO-8601 instant, or the id of the last event it saw. An id in
     * {@code log} resumes exactly after what the client had received from this instance; any other event id
     * is looked up in the topic when the replay runs.
     */
    public static From resolve(String since, DeliveryLog log) {
        try {
            return From.time(OffsetDateTime.parse(since).toInstant());
        } catch (DateTimeParseException notATime) {
            // an id, then
        }
        UUID id;
        try {
            id = UUID.fromString(since);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "since must be an ISO-8601 time or the id of an event, not '" + since + "'");
        }
        var positions = log.positionsAt(id);
        if (positions.isPresent()) {
            var offsets = new HashMap<Integer, Long>();
            var last = positions.get();
            for (int p = 0; p < last.length; p++) {
                offsets.put(p, last[p] + 1);
            }
            return From.offsets(offsets);
        }
        if (id.version() != 7) {
            throw new IllegalArgumentException("since id " + id + " is not an event id of this pipeline");
        }
        return From.event(id);
    }

    /**
     * Sends a {@code gap} message if retention deleted part of what the subscription asked for, then its
     * matching events from {@code from} to the current end of the topic, waiting for the client rather than
     * dropping, then a {@code replayed} marker, then the live events that arrived meanwhile; after that the
     * subscription is live. Returns the number of replayed events.
     */
    public long run(SubscriptionRegistry.Subscription subscription, From from)
            throws InterruptedException, Seam.Overflow {
        running.acquire();
        var stream = subscription.stream();
        // Never moves on its own when retention deletes the position being read: the reader reports it instead.
        try (var reader = TopicReader.open(
                kafkaClient,
                "notify-replay-" + Ids.newId(),
                stream.topic().topicName(),
                Map.of(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"))) {
            // Assigned after the subscription was registered: what is below the ends is replayed, the rest comes live.
            reader.assign();
            var lost = new ArrayList<RetentionGap.Lost>();
            reader.seek(ReplayStart.starts(reader, stream, from, lost));
            if (!announce(subscription, lost)) {
                return 0;
            }
            var count = new AtomicLong();
            if (!reader.read(
                    record -> send(subscription, record, count),
                    deleted -> announce(subscription, ReplayStart.lost(reader, deleted)))) {
                return count.get();
            }
            var covered = new HashMap<Integer, Long>();
            reader.ends().forEach((tp, end) -> covered.put(tp.partition(), end));
            subscription.seam().replayedUpTo(covered);
            // Never dropped for room like a live event: the client counts on knowing where live begins.
            if (!subscription
                    .sink()
                    .sendWhenRoom(ServerMessages.replayed(subscription.id(), count.get()), null, null)) {
                return count.get();
            }
            for (var waiting = subscription.seam().takeWaiting();
                    waiting.isPresent();
                    waiting = subscription.seam().takeWaiting()) {
                for (var pending : waiting.get()) {
                    if (!subscription
                            .sink()
                            .sendWhenRoom(
                                    pending.text(),
                                    stream.streamName(),
                                    pending.event().receivedAt())) {
                        return count.get();
                    }
                }
            }
            log.debug(
                    "Replayed {} events for subscription {} of {}", count, subscription.id(), subscription.sessionId());
            return count.get();
        } finally {
            running.release();
        }
    }

    /** Sends {@code record} if it is an event the subscription wants; false once the session is closed. */
    private static boolean send(
            SubscriptionRegistry.Subscription subscription, ConsumerRecord<String, byte[]> record, AtomicLong count)
            throws InterruptedException {
        LiveEvent event;
        try {
            event = LiveEvent.of(subscription.stream(), record);
        } catch (RuntimeException e) {
            // Not readable as an event of this stream: the live feed would not show it either.
            return true;
        }
        if (!subscription.matches(event)) {
            return true;
        }
        if (!subscription
                .sink()
                .sendWhenRoom(
                        subscription.envelope(event), subscription.stream().streamName(), null)) {
            return false;
        }
        count.incrementAndGet();
        return true;
    }

    /** Sends what was found lost, if anything; false once the session is closed. */
    private boolean announce(SubscriptionRegistry.Subscription subscription, List<RetentionGap.Lost> lost)
            throws InterruptedException {
        if (lost.isEmpty()) {
            return true;
        }
        var message = RetentionGap.message(subscription.id(), subscription.stream(), lost, Instant.now());
        log.info(
                "Subscription {} of {} asked for {} events retention deleted: {}",
                subscription.id(),
                subscription.sessionId(),
                subscription.stream().streamName(),
                lost);
        metrics.replayGap(subscription.stream().streamName());
        return subscription.sink().sendWhenRoom(message, null, null);
    }
}
