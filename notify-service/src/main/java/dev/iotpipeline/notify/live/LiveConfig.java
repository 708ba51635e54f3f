package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.TopicPartitions;
import dev.iotpipeline.notify.NotifyProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.server.standard.ServletServerContainerFactoryBean;

@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class LiveConfig implements WebSocketConfigurer {

    private final SubscriptionRegistry registry = new SubscriptionRegistry();
    private final Map<LiveStream, DeliveryLog> logs = new EnumMap<>(LiveStream.class);
    private final NotifyProperties properties;
    private final Map<String, Object> kafkaClient;
    private final DashboardSocketHandler handler;

    LiveConfig(NotifyProperties properties, MeterRegistry meters, ConsumerFactory<?, ?> consumers) {
        this.properties = properties;
        // The listeners' configuration, so TLS, SASL and client tuning reach the live feed and replays too.
        this.kafkaClient = consumers.getConfigurationProperties();
        var websocket = properties.websocket();
        for (var stream : LiveStream.values()) {
            logs.put(stream, new DeliveryLog(websocket.resumeWindow()));
        }
        var metrics = new LiveMetrics(meters, registry::size);
        // Each session drains on a virtual thread of its own, so a blocked socket holds only that thread.
        this.handler = new DashboardSocketHandler(registry, websocket, metrics,
                Executors.newVirtualThreadPerTaskExecutor(),
                new Replay(kafkaClient, websocket.concurrentReplays(), metrics), logs);
        metrics.watchDeepestQueue(handler::deepestQueue);
    }

    @Bean(destroyMethod = "close")
    LiveFeed liveFeed(KafkaAdmin admin) throws InterruptedException {
        var k = properties.kafka();
        admin.createOrModifyTopics(TopicPartitions.keepExisting(admin.getConfigurationProperties(),
                PipelineTopic.DATA_UNITS.newTopic(k.partitions(), k.replicationFactor()),
                PipelineTopic.ALARMS.newTopic(k.partitions(), k.replicationFactor()),
                PipelineTopic.ALARM_COMMANDS.newTopic(k.partitions(), k.replicationFactor())));
        return new LiveFeed(kafkaClient, registry, logs).start(Duration.ofSeconds(60));
    }

    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService liveHeartbeat() {
        var scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("ws-heartbeat")
                .daemon().factory());
        long every = properties.websocket().heartbeatInterval().toMillis();
        scheduler.scheduleWithFixedDelay(handler::heartbeat, every, every, TimeUnit.MILLISECONDS);
        return scheduler;
    }

    /** Tomcat closes a session whose client sends a larger message (1009) instead of buffering it. */
    @Bean
    ServletServerContainerFactoryBean webSocketContainer() {
        var container = new ServletServerContainerFactoryBean();
        container.setMaxTextMessageBufferSize(properties.websocket().maxMessageBytes());
        container.setMaxBinaryMessageBufferSize(properties.websocket().maxMessageBytes());
        return container;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry handlers) {
        handlers.addHandler(handler, "/ws")
                .addInterceptors(new TokenHandshakeInterceptor())
                .setAllowedOriginPatterns("*");
    }
}
