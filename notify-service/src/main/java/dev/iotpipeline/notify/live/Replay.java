package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a stream from Kafka for a subscription that asked for {@code since}, then joins it to the live
 * stream at its {@link Seam}. Kafka rather than PostgreSQL is the source: it holds every event in the order
 * the live feed saw it, with offsets that make the seam exact, and it is never behind the live stream.
 */
final class Replay {

    /**
     * Where a replay starts: exact per-partition offsets, or the first record at or after {@code time} skipping
     * ids up to {@code after} (when the event named by a since id has left this instance's delivery log).
     */
    record From(Map<Integer, Long> offsets, Instant time, UUID after) {
    }

    private static final Logger log = LoggerFactory.getLogger(Replay.class);

    private final String bootstrapServers;
    private final Semaphore running;

    Replay(String bootstrapServers, int concurrentReplays) {
        this.bootstrapServers = bootstrapServers;
        this.running = new Semaphore(concurrentReplays);
    }

    /**
     * Resolves a client's {@code since}: an ISO-8601 instant, or the id of the last event it saw. An id in
     * {@code log} resumes exactly after what the client had received; an older one resumes from its time.
     */
    static From resolve(String since, DeliveryLog log) {
        try {
            return new From(null, OffsetDateTime.parse(since).toInstant(), null);
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
            return new From(offsets, null, null);
        }
        if (id.version() != 7) {
            throw new IllegalArgumentException("since id " + id + " is not an event id of this pipeline");
        }
        return new From(null, Ids.timeOf(id), id);
    }

    /**
     * Sends the subscription's matching events from {@code from} to the current end of the topic, waiting
     * for the client rather than dropping, then a {@code replayed} marker, then the live events that arrived
     * meanwhile; after that the subscription is live. Returns the number of replayed events.
     */
    long run(SubscriptionRegistry.Subscription subscription, From from) throws InterruptedException {
        running.acquire();
        try (var consumer = consumer()) {
            var topic = subscription.stream.topic().topicName();
            var partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            // Read after the subscription was registered: everything below is replayed, the rest comes live.
            var ends = consumer.endOffsets(partitions);
            seek(consumer, partitions, from, ends);
            long count = 0;
            var remaining = new HashMap<>(ends);
            remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            while (!remaining.isEmpty()) {
                for (var record : consumer.poll(Duration.ofMillis(200))) {
                    var tp = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() >= ends.get(tp)) {
                        continue;
                    }
                    LiveEvent event;
                    try {
                        event = LiveEvent.of(subscription.stream, record);
                    } catch (RuntimeException e) {
                        continue;
                    }
                    if (subscription.matches(event) && (from.after() == null || Ids.isAfter(event.id(), from.after()))) {
                        if (!subscription.sink.sendWhenRoom(subscription.envelope(event),
                                subscription.stream.streamName(), null)) {
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
            subscription.sink.reply(marker(subscription.id, count));
            for (var waiting = subscription.seam().takeWaiting(); waiting.isPresent();
                    waiting = subscription.seam().takeWaiting()) {
                for (var pending : waiting.get()) {
                    if (!subscription.sink.sendWhenRoom(pending.text(), subscription.stream.streamName(),
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

    private static void seek(KafkaConsumer<String, byte[]> consumer, java.util.List<TopicPartition> partitions,
            From from, Map<TopicPartition, Long> ends) {
        if (from.offsets() != null) {
            var beginnings = consumer.beginningOffsets(partitions);
            for (var tp : partitions) {
                long wanted = from.offsets().getOrDefault(tp.partition(), beginnings.get(tp));
                consumer.seek(tp, Math.max(beginnings.get(tp), Math.min(wanted, ends.get(tp))));
            }
            return;
        }
        var query = new HashMap<TopicPartition, Long>();
        partitions.forEach(tp -> query.put(tp, from.time().toEpochMilli()));
        var found = consumer.offsetsForTimes(query);
        for (var tp : partitions) {
            var hit = found.get(tp);
            consumer.seek(tp, hit == null ? ends.get(tp) : hit.offset());
        }
    }

    private static String marker(String id, long count) {
        var body = new LinkedHashMap<String, Object>();
        body.put("type", "replayed");
        body.put("id", id);
        body.put("count", count);
        return EventJson.mapper().writeValueAsString(body);
    }

    private KafkaConsumer<String, byte[]> consumer() {
        var props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "notify-replay-" + Ids.newId());
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }
}
