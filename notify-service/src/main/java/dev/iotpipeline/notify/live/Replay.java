package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.ReaderProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a stream from Kafka for a subscription that asked for {@code since}, then joins it to the live
 * stream at its {@link Seam}. Kafka rather than PostgreSQL is the source: it holds every event in the order
 * the live feed saw it, with offsets that make the seam exact, and it is never behind the live stream. What
 * retention already deleted is announced with a {@code gap} message, never skipped in silence.
 */
final class Replay {

    /**
     * Where a replay starts: exact per-partition offsets (an id this instance delivered), an event to find in
     * the topic (an id it did not: another instance's, or older than its delivery log), or a time.
     */
    record From(Map<Integer, Long> offsets, UUID event, Instant time) {

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

    /** Where an event sits in its topic. */
    private record Located(int partition, long offset, Instant timestamp) {
    }

    private static final Logger log = LoggerFactory.getLogger(Replay.class);
    // An event is published after its id was made, but on the producer's clock, which may run behind the
    // clock that made the id; the search for it starts this much earlier.
    private static final Duration CLOCK_SKEW = Duration.ofSeconds(10);

    private final Map<String, Object> kafkaClient;
    private final Semaphore running;
    private final LiveMetrics metrics;

    Replay(Map<String, Object> kafkaClient, int concurrentReplays, LiveMetrics metrics) {
        this.kafkaClient = kafkaClient;
        this.running = new Semaphore(concurrentReplays);
        this.metrics = metrics;
    }

    /**
     * Resolves a client's {@code since}: an ISO-8601 instant, or the id of the last event it saw. An id in
     * {@code log} resumes exactly after what the client had received from this instance; any other event id
     * is looked up in the topic when the replay runs.
     */
    static From resolve(String since, DeliveryLog log) {
        try {
            return From.time(OffsetDateTime.parse(since).toInstant());
        } catch (DateTimeParseException notATime) {
            // an id, then
        }
        UUID id;
        try {
            id = UUID.fromString(since);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("since must be an ISO-8601 time or the id of an event, not '"
                    + since + "'");
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
    long run(SubscriptionRegistry.Subscription subscription, From from) throws InterruptedException {
        running.acquire();
        try (var consumer = consumer()) {
            var stream = subscription.stream;
            var topic = stream.topic().topicName();
            var partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            // Read after the subscription was registered: everything below is replayed, the rest comes live.
            var ends = consumer.endOffsets(partitions);
            var lost = new ArrayList<RetentionGap.Lost>();
            var starts = starts(consumer, stream, partitions, from, ends, lost);
            starts.forEach((tp, offset) -> consumer.seek(tp, Math.min(offset, ends.get(tp))));
            if (!announce(subscription, lost)) {
                return 0;
            }
            long count = 0;
            var remaining = new HashMap<>(ends);
            remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            while (!remaining.isEmpty()) {
                var records = poll(consumer, lost);
                if (!announce(subscription, lost)) {
                    return count;
                }
                for (var record : records) {
                    var tp = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() >= ends.get(tp)) {
                        continue;
                    }
                    LiveEvent event;
                    try {
                        event = LiveEvent.of(stream, record);
                    } catch (RuntimeException e) {
                        continue;
                    }
                    if (subscription.matches(event)) {
                        if (!subscription.sink.sendWhenRoom(subscription.envelope(event), stream.streamName(), null)) {
                            return count;
                        }
                        count++;
                    }
                }
                remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            }
            var covered = new HashMap<Integer, Long>();
            ends.forEach((tp, end) -> covered.put(tp.partition(), end));
            subscription.seam().replayedUpTo(covered);
            // Never dropped for room like a live event: the client counts on knowing where live begins.
            if (!subscription.sink.sendWhenRoom(marker(subscription.id, count), null, null)) {
                return count;
            }
            for (var waiting = subscription.seam().takeWaiting(); waiting.isPresent();
                    waiting = subscription.seam().takeWaiting()) {
                for (var pending : waiting.get()) {
                    if (!subscription.sink.sendWhenRoom(pending.text(), stream.streamName(),
                            pending.event().receivedAt())) {
                        return count;
                    }
                }
            }
            log.debug("Replayed {} events for subscription {} of {}", count, subscription.id, subscription.sessionId);
            return count;
        } finally {
            running.release();
        }
    }

    /** Sends and clears what was found lost so far; false once the session is closed. */
    private boolean announce(SubscriptionRegistry.Subscription subscription, List<RetentionGap.Lost> lost)
            throws InterruptedException {
        if (lost.isEmpty()) {
            return true;
        }
        var message = RetentionGap.message(subscription.id, subscription.stream, lost, Instant.now());
        log.info("Subscription {} of {} asked for {} events retention deleted: {}", subscription.id,
                subscription.sessionId, subscription.stream.streamName(), lost);
        metrics.replayGap(subscription.stream.streamName());
        lost.clear();
        return subscription.sink.sendWhenRoom(message, null, null);
    }

    /**
     * Polls; a position that retention deleted meanwhile is recorded as lost and moved to the first record
     * still held, instead of the consumer jumping somewhere on its own.
     */
    private static ConsumerRecords<String, byte[]> poll(KafkaConsumer<String, byte[]> consumer,
            List<RetentionGap.Lost> lost) {
        try {
            return consumer.poll(Duration.ofMillis(200));
        } catch (OffsetOutOfRangeException e) {
            var deleted = e.offsetOutOfRangePartitions();
            var retained = retained(consumer, List.copyOf(deleted.keySet()));
            deleted.forEach((tp, position) -> {
                var held = retained.get(tp);
                if (position < held.beginningOffset()) {
                    RetentionGap.fromOffset(tp.partition(), position, held).ifPresent(lost::add);
                    consumer.seek(tp, held.beginningOffset());
                } else {
                    // Past the end: the log was truncated under us, and nothing beyond it exists to replay.
                    consumer.seekToEnd(List.of(tp));
                }
            });
            return ConsumerRecords.empty();
        }
    }

    /**
     * Where each partition's replay starts, adding to {@code lost} what retention deleted of what was asked
     * for. An event found in the topic pins its own partition exactly; on the others the client is taken to
     * have had what was published up to the event's millisecond, which is the order a live feed delivers
     * partitions in, to within events of several partitions published in the same instant: two instances may
     * deliver those in different orders, and one id cannot say which order the client saw.
     */
    private static Map<TopicPartition, Long> starts(KafkaConsumer<String, byte[]> consumer, LiveStream stream,
            List<TopicPartition> partitions, From from, Map<TopicPartition, Long> ends, List<RetentionGap.Lost> lost) {
        var retained = retained(consumer, partitions);
        var starts = new HashMap<TopicPartition, Long>();
        if (from.offsets() != null) {
            for (var tp : partitions) {
                // A partition the log never saw was added after this instance started: all of it is new.
                long wanted = from.offsets().getOrDefault(tp.partition(), 0L);
                var held = retained.get(tp);
                RetentionGap.fromOffset(tp.partition(), wanted, held).ifPresent(lost::add);
                starts.put(tp, Math.max(wanted, held.beginningOffset()));
            }
            return starts;
        }
        var time = from.time();
        var others = partitions;
        if (from.event() != null) {
            var at = locate(consumer, stream, partitions, from.event(), ends);
            if (at.isPresent()) {
                var tp = new TopicPartition(stream.topic().topicName(), at.get().partition());
                starts.put(tp, at.get().offset() + 1);
                others = partitions.stream().filter(p -> !p.equals(tp)).toList();
                time = at.get().timestamp().plusMillis(1);
            } else {
                // Not in the topic: deleted by retention (the gap below says so) or not an event of this stream.
                time = Ids.timeOf(from.event());
            }
        }
        var query = new HashMap<TopicPartition, Long>();
        for (var tp : others) {
            query.put(tp, Math.max(0, time.toEpochMilli()));
        }
        var found = consumer.offsetsForTimes(query);
        for (var tp : others) {
            var hit = found.get(tp);
            starts.put(tp, hit == null ? ends.get(tp) : hit.offset());
            RetentionGap.fromTime(tp.partition(), time, retained.get(tp)).ifPresent(lost::add);
        }
        return starts;
    }

    /** Finds the event {@code id} in the topic, reading from shortly before its id's time up to {@code ends}. */
    private static Optional<Located> locate(KafkaConsumer<String, byte[]> consumer, LiveStream stream,
            List<TopicPartition> partitions, UUID id, Map<TopicPartition, Long> ends) {
        var query = new HashMap<TopicPartition, Long>();
        long from = Ids.timeOf(id).minus(CLOCK_SKEW).toEpochMilli();
        partitions.forEach(tp -> query.put(tp, Math.max(0, from)));
        var found = consumer.offsetsForTimes(query);
        for (var tp : partitions) {
            var hit = found.get(tp);
            consumer.seek(tp, hit == null ? ends.get(tp) : hit.offset());
        }
        var needle = id.toString().getBytes(StandardCharsets.UTF_8);
        var remaining = new HashMap<>(ends);
        remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        var ignored = new ArrayList<RetentionGap.Lost>();
        while (!remaining.isEmpty()) {
            for (var record : poll(consumer, ignored)) {
                if (record.offset() < ends.get(new TopicPartition(record.topic(), record.partition()))
                        && contains(record.value(), needle) && isEvent(stream, record, id)) {
                    return Optional.of(new Located(record.partition(), record.offset(),
                            Instant.ofEpochMilli(record.timestamp())));
                }
            }
            remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        }
        return Optional.empty();
    }

    private static boolean isEvent(LiveStream stream, ConsumerRecord<String, byte[]> record, UUID id) {
        try {
            return LiveEvent.of(stream, record).id().equals(id);
        } catch (RuntimeException e) {
            return false;
        }
    }

    // A byte search skips parsing the JSON of every record on the way to the one that is wanted.
    private static boolean contains(byte[] haystack, byte[] needle) {
        if (haystack == null) {
            return false;
        }
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Beginning offsets and first retained records, asked for every partition at once. */
    private static Map<TopicPartition, RetentionGap.Retained> retained(KafkaConsumer<String, byte[]> consumer,
            List<TopicPartition> partitions) {
        var beginnings = consumer.beginningOffsets(partitions);
        var query = new HashMap<TopicPartition, Long>();
        partitions.forEach(tp -> query.put(tp, 0L));
        var first = consumer.offsetsForTimes(query);
        var retained = new HashMap<TopicPartition, RetentionGap.Retained>();
        for (var tp : partitions) {
            var hit = first.get(tp);
            retained.put(tp, new RetentionGap.Retained(beginnings.get(tp), hit == null ? null : hit.offset(),
                    hit == null ? null : Instant.ofEpochMilli(hit.timestamp())));
        }
        return retained;
    }

    private static String marker(String id, long count) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "replayed");
        body.put("id", id);
        body.put("count", count);
        return EventJson.mapper().writeValueAsString(body);
    }

    private KafkaConsumer<String, byte[]> consumer() {
        var props = ReaderProperties.reader(kafkaClient, "notify-replay-" + Ids.newId());
        // Never jump on its own when retention deletes the position being read: poll() says so instead.
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }
}
