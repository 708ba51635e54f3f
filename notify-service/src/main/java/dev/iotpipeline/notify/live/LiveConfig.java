package dev.iotpipeline.notify.live;

import dev.iotpipeline.kafka.metrics.HopTimers;
import dev.iotpipeline.kafka.reader.ReaderLifecycle;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.TopicDeclarations;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.live.feed.DeliveryLogs;
import dev.iotpipeline.notify.live.feed.LiveFeed;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry;
import dev.iotpipeline.notify.live.protocol.DashboardSocketHandler;
import dev.iotpipeline.notify.live.replay.Replay;
import dev.iotpipeline.notify.live.session.LiveMetrics;
import dev.iotpipeline.notify.live.session.Sessions;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Wires the live delivery: the feed (topic tails into subscriptions), sessions (one writer each), replays
 * for {@code since}, and the {@code /ws} protocol on top of them.
 */
@Configuration(proxyBeanMethods = false)
class LiveConfig {

    // Each session drains, and each replay runs, on a virtual thread of its own, so a blocked socket holds only
    // that thread. Not a bean: an Executor bean would replace Spring Boot's application task executor.
    private final ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
    private final NotifyProperties properties;
    private final Map<String, Object> kafkaClient;

    LiveConfig(NotifyProperties properties, ConsumerFactory<?, ?> consumers) {
        this.properties = properties;
        // The listeners' configuration, so TLS, SASL and client tuning reach the live feed and replays too.
        this.kafkaClient = consumers.getConfigurationProperties();
    }

    @Bean
    SubscriptionRegistry subscriptionRegistry() {
        return new SubscriptionRegistry();
    }

    @Bean
    DeliveryLogs deliveryLogs() {
        return new DeliveryLogs(properties.websocket().resumeWindow());
    }

    @Bean
    LiveMetrics liveMetrics(MeterRegistry meters, SubscriptionRegistry registry) {
        return new LiveMetrics(meters, registry::size);
    }

    @Bean
    Sessions sessions(LiveMetrics metrics) {
        return new Sessions(properties.websocket(), virtualThreads, metrics);
    }

    @Bean
    Replay replay(LiveMetrics metrics) {
        return new Replay(kafkaClient, properties.websocket().concurrentReplays(), metrics);
    }

    @Bean
    DashboardSocketHandler dashboardSocketHandler(
            SubscriptionRegistry registry, Sessions sessions, LiveMetrics metrics, Replay replay, DeliveryLogs logs) {
        return new DashboardSocketHandler(
                registry, sessions, properties.websocket(), metrics, virtualThreads, replay, logs);
    }

    @Bean(destroyMethod = "close")
    LiveFeed liveFeed(SubscriptionRegistry registry, DeliveryLogs logs, MeterRegistry meters) {
        return new LiveFeed(kafkaClient, registry, logs, new HopTimers(meters));
    }

    /** Positions the feed at the topics' ends before the web server takes the first subscription. */
    @Bean
    ReaderLifecycle liveFeedReader(LiveFeed feed, KafkaAdmin admin) {
        var k = properties.kafka();
        return new ReaderLifecycle("live feed", k.readerStartTimeout(), timeout -> {
            if (!TopicDeclarations.createMissing(
                    admin,
                    timeout,
                    k.partitions(),
                    k.replicationFactor(),
                    PipelineTopic.DATA_UNITS,
                    PipelineTopic.ALARMS)) {
                return false;
            }
            feed.start(timeout);
            return true;
        });
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService liveHeartbeat(Sessions sessions) {
        var scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("ws-heartbeat").daemon().factory());
        long every = properties.websocket().heartbeatInterval().toMillis();
        scheduler.scheduleWithFixedDelay(sessions::heartbeat, every, every, TimeUnit.MILLISECONDS);
        return scheduler;
    }
}
