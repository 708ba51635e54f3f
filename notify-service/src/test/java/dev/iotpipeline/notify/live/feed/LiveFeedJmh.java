package dev.iotpipeline.notify.live.feed;

import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.metrics.HopTimers;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry.Filter;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry.Subscription;
import dev.iotpipeline.notify.live.session.LiveMetrics;
import dev.iotpipeline.notify.live.session.SessionSender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.http.HttpHeaders;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketExtension;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;

/** JMH benchmarks of the live feed's per-record work: one data-units record parsed, logged, matched against 60 dashboard subscriptions and rendered into their WebSocket messages. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LiveFeedJmh {

    static final java.util.UUID UPLINK = java.util.UUID.fromString("0193b8a2-7c4e-7d21-9f3a-2b4c6d8e0a1b");

    /** Sessions whose subscription the data unit matches: irrigation, or all channels they may see. */
    static final int MATCHING = 30;

    SubscriptionRegistry registry;
    DeliveryLogs logs;
    LiveFeed feed;
    ConsumerRecord<String, byte[]> record;
    LiveEvent event;
    Subscription subscription;

    @Setup
    public void setUp() {
        registry = new SubscriptionRegistry();
        var metrics = new LiveMetrics(new SimpleMeterRegistry(), registry::size);
        // 60 dashboard sessions: 20 on the channel, 10 on one other device of it, 10 on another channel,
        // 10 on all their channels, 10 on alarms; a dashboard reuses its subscription id, as the UI does.
        for (int s = 0; s < 60; s++) {
            var session = "session-" + s;
            var sender = new SessionSender(
                    new DiscardingSession(session), Runnable::run, 1000, Duration.ofSeconds(10), metrics);
            registry.add(
                    switch (s / 10) {
                        case 0, 1 ->
                            new Subscription(
                                    session,
                                    "live",
                                    LiveStream.DATA_UNITS,
                                    new Filter("irrigation", null, null, null),
                                    null,
                                    sender);
                        case 2 ->
                            new Subscription(
                                    session,
                                    "one",
                                    LiveStream.DATA_UNITS,
                                    new Filter("irrigation", null, "dev-7", null),
                                    null,
                                    sender);
                        case 3 ->
                            new Subscription(
                                    session,
                                    "live",
                                    LiveStream.DATA_UNITS,
                                    new Filter("greenhouse", null, null, null),
                                    null,
                                    sender);
                        case 4 ->
                            new Subscription(
                                    session,
                                    "all",
                                    LiveStream.DATA_UNITS,
                                    Filter.ANY,
                                    Set.of("irrigation", "greenhouse"),
                                    sender);
                        default -> new Subscription(session, "alarms", LiveStream.ALARMS, Filter.ANY, null, sender);
                    });
        }
        // Never started: its tails create consumers that never connect; the benchmark calls its per-record work.
        logs = new DeliveryLogs(500_000);
        feed = new LiveFeed(
                Map.of("bootstrap.servers", "127.0.0.1:1"), registry, logs, new HopTimers(new SimpleMeterRegistry()));
        var now = Instant.now();
        var unit = new DataUnit(
                Ids.newId(),
                DataUnit.SCHEMA_VERSION,
                UPLINK,
                "irrigation",
                "em300th",
                "dev-1",
                now,
                now,
                now,
                Map.of("temperature", 30.8, "humidity", 50.5, "battery", 92.0),
                Map.of("network", Map.of("networkServer", "tts", "rssi", -35, "snr", 5, "gateways", 1)));
        // As most records come: in their uplink's own unsampled trace, with no traceparent.
        var headers = new RecordHeaders();
        record = new ConsumerRecord<>(
                PipelineTopic.DATA_UNITS.topicName(),
                3,
                0,
                now.toEpochMilli(),
                TimestampType.CREATE_TIME,
                -1,
                -1,
                "dev-1",
                PipelineTopic.DATA_UNITS
                        .valueSerde()
                        .serializer()
                        .serialize(PipelineTopic.DATA_UNITS.topicName(), unit),
                headers,
                Optional.empty());
        event = LiveEvent.of(LiveStream.DATA_UNITS, record);
        subscription = new Subscription(
                "session-x", "live", LiveStream.DATA_UNITS, new Filter("irrigation", null, null, null), null, null);
    }

    /**
     * LiveFeed's per-record work: parse the record, append it to the delivery log, and deliver it to every matching
     * subscription (the envelope rendered once per subscription id, each session's sender queueing and, with a
     * same-thread executor here, draining it to a socket that discards); returns the deliveries.
     */
    @Benchmark
    public int onDataUnitRecord() {
        return feed.onRecord(LiveStream.DATA_UNITS, record);
    }

    @TearDown
    public void close() {
        feed.close();
    }

    /** Only the parse of one data-units record into the event subscriptions match on. */
    @Benchmark
    public LiveEvent parseRecord() {
        return LiveEvent.of(LiveStream.DATA_UNITS, record);
    }

    /** Only matching one subscription and rendering its WebSocket message (with the trace id). */
    @Benchmark
    public String matchAndRender() {
        return subscription.matches(event) ? subscription.envelope(event) : null;
    }

    /** A WebSocket session that takes every message and writes it nowhere. */
    static final class DiscardingSession implements WebSocketSession {

        private final String id;
        long messages;

        DiscardingSession(String id) {
            this.id = id;
        }

        @Override
        public void sendMessage(WebSocketMessage<?> message) {
            messages++;
        }

        @Override
        public String getId() {
            return id;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public URI getUri() {
            return null;
        }

        @Override
        public HttpHeaders getHandshakeHeaders() {
            return new HttpHeaders();
        }

        @Override
        public Map<String, Object> getAttributes() {
            return Map.of();
        }

        @Override
        public Principal getPrincipal() {
            return null;
        }

        @Override
        public InetSocketAddress getLocalAddress() {
            return null;
        }

        @Override
        public InetSocketAddress getRemoteAddress() {
            return null;
        }

        @Override
        public String getAcceptedProtocol() {
            return null;
        }

        @Override
        public void setTextMessageSizeLimit(int messageSizeLimit) {}

        @Override
        public int getTextMessageSizeLimit() {
            return 0;
        }

        @Override
        public void setBinaryMessageSizeLimit(int messageSizeLimit) {}

        @Override
        public int getBinaryMessageSizeLimit() {
            return 0;
        }

        @Override
        public List<WebSocketExtension> getExtensions() {
            return List.of();
        }

        @Override
        public void close() {}

        @Override
        public void close(CloseStatus status) {}
    }
}
