package dev.iotpipeline.notify.live.warmup;

import dev.iotpipeline.notify.NotifyProperties;
import dev.iotpipeline.notify.live.feed.DeliveryLogs;
import dev.iotpipeline.notify.live.feed.SubscriptionRegistry;
import dev.iotpipeline.notify.live.protocol.DashboardSocketHandler;
import dev.iotpipeline.notify.live.replay.Replay;
import dev.iotpipeline.notify.live.session.LiveMetrics;
import dev.iotpipeline.notify.live.session.Sessions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.admin.Admin;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Wires the live warm-up: the rehearsal's own dashboard (token, protocol handler, subscriptions, sessions, delivery
 * log, and a meter registry of its own that nothing exports) and the warm-up that drives it.
 */
@Configuration(proxyBeanMethods = false)
class LiveWarmupConfig {

    // The production registry's type, so the rehearsal warms the timers and counters the live path records into.
    private final MeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
    private final NotifyProperties properties;
    private final Map<String, Object> kafkaClient;

    LiveWarmupConfig(NotifyProperties properties, ConsumerFactory<?, ?> consumers) {
        this.properties = properties;
        this.kafkaClient = consumers.getConfigurationProperties();
    }

    @Bean(destroyMethod = "")
    LiveRehearsal liveRehearsal() {
        var registry = new SubscriptionRegistry();
        var metrics = new LiveMetrics(meters, registry::size);
        var websocket = properties.websocket();
        // Small: the rehearsal resumes nothing; its ring wraps, as a busy instance's does.
        var logs = new DeliveryLogs(1024);
        var handler = new DashboardSocketHandler(
                registry,
                new Sessions(websocket, virtualThreads, metrics),
                websocket,
                metrics,
                virtualThreads,
                new Replay(kafkaClient, 1, metrics),
                logs);
        return new LiveRehearsal(handler, registry, logs);
    }

    /** The rehearsal's WebSocket upgrade is not a request anyone made: no http.server.requests sample of it. */
    @Bean
    ObservationPredicate liveRehearsalUnobserved(LiveRehearsal rehearsal) {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && rehearsal.presentedBy(request.getCarrier()));
    }

    @Bean
    LiveWarmup liveWarmup(
            LiveRehearsal rehearsal, Environment environment, KafkaTemplate<String, Object> kafka, KafkaAdmin admin) {
        return new LiveWarmup(
                rehearsal,
                () -> environment.getRequiredProperty("local.server.port", Integer.class),
                kafka,
                () -> Admin.create(admin.getConfigurationProperties()),
                kafkaClient,
                meters,
                properties.kafka().replicationFactor());
    }
}
