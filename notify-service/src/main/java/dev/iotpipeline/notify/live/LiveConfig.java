package dev.iotpipeline.notify.live;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.auth.DashboardTokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;

@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class LiveConfig implements WebSocketConfigurer {

    private final SubscriptionRegistry registry = new SubscriptionRegistry();
    private final NotifyProperties properties;
    private final DashboardTokens tokens;

    private final DashboardSocketHandler handler;

    LiveConfig(NotifyProperties properties, DashboardTokens tokens, MeterRegistry meters) {
        this.properties = properties;
        this.tokens = tokens;
        // Each session drains on a virtual thread of its own, so a blocked socket holds only that thread.
        this.handler = new DashboardSocketHandler(registry, properties.websocket(),
                new LiveMetrics(meters, registry::size), Executors.newVirtualThreadPerTaskExecutor());
    }

    @Bean(destroyMethod = "close")
    LiveFeed liveFeed(KafkaProperties kafka, KafkaAdmin admin) throws InterruptedException {
        var k = properties.kafka();
        admin.createOrModifyTopics(PipelineTopic.DATA_UNITS.newTopic(k.partitions(), k.replicationFactor()),
                PipelineTopic.ALARMS.newTopic(k.partitions(), k.replicationFactor()),
                PipelineTopic.ALARM_COMMANDS.newTopic(k.partitions(), k.replicationFactor()));
        return new LiveFeed(String.join(",", kafka.getBootstrapServers()), registry).start(Duration.ofSeconds(60));
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry handlers) {
        handlers.addHandler(handler, "/ws")
                .addInterceptors(new TokenHandshakeInterceptor(tokens))
                .setAllowedOriginPatterns("*");
    }
}
