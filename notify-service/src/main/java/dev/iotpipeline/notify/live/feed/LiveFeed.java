package dev.iotpipeline.notify.live.feed;

import dev.iotpipeline.kafka.metrics.HopTimers;
import dev.iotpipeline.kafka.topic.TopicTail;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Tails data-units and alarms from their end on this instance alone (no shared consumer group), so every
 * notify instance sees every event and delivers to its own sessions, and logs the dispatch order so a
 * reconnecting client can resume exactly.
 */
public final class LiveFeed implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LiveFeed.class);

    private final SubscriptionRegistry registry;
    private final DeliveryLogs logs;
    private final HopTimers hops;
    private final Map<LiveStream, TopicTail> tails = new EnumMap<>(LiveStream.class);

    public LiveFeed(Map<String, Object> kafkaClient, SubscriptionRegistry registry, DeliveryLogs logs, HopTimers hops) {
        this(kafkaClient, streamTopics(), registry, logs, hops);
    }

    /** A feed of {@code topics} (by stream) instead of the streams' own: a warm-up's rehearsal of the live path. */
    public LiveFeed(
            Map<String, Object> kafkaClient,
            Map<LiveStream, String> topics,
            SubscriptionRegistry registry,
            DeliveryLogs logs,
            HopTimers hops) {
        this.registry = registry;
        this.hops = hops;
        this.logs = logs;
        topics.forEach((stream, topic) -> tails.put(
                stream, new TopicTail(kafkaClient, topic, TopicTail.Start.END, record -> onRecord(stream, record))));
    }

    private static Map<LiveStream, String> streamTopics() {
        var topics = new EnumMap<LiveStream, String>(LiveStream.class);
        for (var stream : LiveStream.values()) {
            topics.put(stream, stream.topic().topicName());
        }
        return topics;
    }

    /** Returns once every tail is positioned, so nothing produced after startup is missed. */
    public LiveFeed start(Duration timeout) throws InterruptedException {
        tails.values().forEach(TopicTail::startReading);
        for (var entry : tails.entrySet()) {
            if (!entry.getValue().awaitCaughtUp(timeout)) {
                throw new IllegalStateException("live topics not readable within " + timeout);
            }
            var log = logs.of(entry.getKey());
            entry.getValue().startPositions().forEach(log::started);
        }
        return this;
    }

    /** Hands one record to the matching subscriptions, after the delivery log; returns how many it went to. */
    int onRecord(LiveStream stream, ConsumerRecord<String, byte[]> record) {
        hops.since(stream.pollHop(), record.timestamp());
        var event = LiveEvent.of(stream, record);
        logs.of(stream).append(event.id(), event.partition(), event.offset());
        if (event.traceId() != null && log.isDebugEnabled()) {
            // traceId is the MDC key Micrometer Tracing uses, so this line correlates with the other services'.
            try (var ignored = MDC.putCloseable("traceId", event.traceId())) {
                log.debug("Dispatching {} {} of {}", stream.messageType(), event.id(), event.deviceId());
                return registry.dispatch(event);
            }
        }
        return registry.dispatch(event);
    }

    @Override
    public void close() {
        new ArrayList<>(tails.values()).forEach(TopicTail::close);
    }
}
